#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check_workloads.py - real workloads that a correct kernel must pass under `mgtrace check`.

  race FILE SECONDS        one process loops fchmod(0600)/fchmod(0644) on FILE while another
                           loops fstat() on it: the load multigrain timestamps exist for
  race-new FILE SECONDS    the same on a FILE it creates first
  statchmod FILE SECONDS   stat FILE, then chmod it, in a loop: every update follows a query
  gran FILE                chmod; stat; chmod within one second (coarse-granularity filesystems)
  clockstep DIR SECONDS    write+stat loop on DIR/f while CLOCK_REALTIME is stepped back by
                           0.5 ms and forward again, three times (root)
  stepback A B SECONDS     files A and B made before: fstat both (their ctimes are first seen
                           by a getattr), write+fstat A three times, then CLOCK_REALTIME stepped
                           back by SECONDS, write+fstat A (earlier than its last update) and B
                           (earlier than its ctime from before), and the clock set forward
                           again; one thread (root)
  clock-syscalls READY SECONDS  real clock_gettime(CLOCK_REALTIME) system calls (x86_64 nr 228,
                           not the vDSO) in a loop; READY is created after the first one
  churn DIR N LIVE         make LIVE files in DIR and stat them; then N times: create a file,
                           write it, stat it, delete it (the filesystem may hand the inode
                           number out again); at the end write and stat the LIVE files again
  live DIR N ROUNDS RATE   N files kept alive in DIR: created, then appended to and stat()ed
                           in turn ROUNDS times, RATE operations a second (check --forget)
  dirvis DIR N [rename]    N times: create DIR/a and DIR/b, stat DIR, unlink a, stat DIR,
                           unlink b, stat DIR; prints how often DIR's ctime was not later after
                           an unlink that followed a stat of DIR (the visibility promise for
                           the directory); rename: after the first time, DIR is renamed
                           DIR-renamed (its reports must name it so); exit 0
  statflood B N A K SECONDS  (outside check's COMMAND) make N files in B; once A/start
                           exists stat them all three times; once A/go exists stat A/shared
                           K times and create A/done; then wait for A/stop (each wait ends
                           the run, exit 1, after SECONDS in all)
  scoped A                 (check --tree's COMMAND, beside statflood) create A/start, write
                           and stat 20 files in A three times, write A/shared, create A/go,
                           wait for A/done (20 s at most: exit 1), write and stat A/shared
                           again, create A/stop
"""
import multiprocessing
import os
import sys
import time


def loop_for(seconds, fn):
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        for _ in range(200):
            fn()
        n += 200
    return n


def chmodder(path, seconds):
    fd = os.open(path, os.O_RDONLY)
    modes = [0o600, 0o644]
    i = [0]

    def one():
        os.fchmod(fd, modes[i[0] & 1])
        i[0] += 1
    loop_for(seconds, one)


def statter(path, seconds):
    fd = os.open(path, os.O_RDONLY)
    loop_for(seconds, lambda: os.fstat(fd))


def race(path, seconds):
    procs = [multiprocessing.Process(target=f, args=(path, seconds)) for f in (chmodder, statter)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return max(p.exitcode for p in procs)


def race_new(path, seconds):
    if os.path.exists(path):
        os.unlink(path)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644))
    return race(path, seconds)


def statchmod(path, seconds):
    modes = [0o600, 0o644]
    i = [0]

    def one():
        os.stat(path)
        os.chmod(path, modes[i[0] & 1])
        i[0] += 1
    loop_for(seconds, one)
    return 0


def gran(path):
    # the calls inside one second, so that the second chmod cannot reach the next one; on a
    # loaded machine the process can be descheduled past the second: then try again (the
    # check counts at least one granularity case, so a repeat only adds updates)
    # the kernel stamps with the coarse clock, up to a tick (4 ms at HZ 250) behind
    # time.time(): start at least 50 ms into a second, or chmod;stat;chmod can straddle two
    # seconds of the coarse clock while time.time() shows one (seen once in ~100 runs)
    for _ in range(10):
        while not 0.05 < time.time() % 1 < 0.5:
            time.sleep(0.01)
        t0 = time.time()
        os.chmod(path, 0o600)
        os.stat(path)
        os.chmod(path, 0o644)
        os.stat(path)
        if int(time.time()) == int(t0):
            return 0
    return 1


def stepper(seconds):
    time.sleep(seconds / 8)
    for _ in range(3):
        now = time.clock_gettime_ns(time.CLOCK_REALTIME)
        time.clock_settime_ns(time.CLOCK_REALTIME, now - 500000)
        time.sleep(seconds / 8)
        now = time.clock_gettime_ns(time.CLOCK_REALTIME)
        time.clock_settime_ns(time.CLOCK_REALTIME, now + 500000)
        time.sleep(seconds / 8)


def writer(path, seconds):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def one():
        os.write(fd, b"x")
        os.fstat(fd)
        if os.lseek(fd, 0, os.SEEK_CUR) > 1 << 20:
            os.ftruncate(fd, 0)
    loop_for(seconds, one)


def clockstep(d, seconds):
    path = os.path.join(d, "f")
    procs = [multiprocessing.Process(target=writer, args=(path, seconds)),
             multiprocessing.Process(target=stepper, args=(seconds,))]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return max(p.exitcode for p in procs)


def stepback(a, b, seconds):
    fa, fb = os.open(a, os.O_RDWR), os.open(b, os.O_RDWR)
    os.fstat(fa)
    os.fstat(fb)
    for _ in range(3):
        os.write(fa, b"x")
        os.fstat(fa)
    t = time.clock_gettime(time.CLOCK_REALTIME)
    time.clock_settime(time.CLOCK_REALTIME, t - seconds)
    try:
        for fd in (fa, fb):
            os.write(fd, b"y")
            os.fstat(fd)
    finally:
        time.clock_settime(time.CLOCK_REALTIME, time.clock_gettime(time.CLOCK_REALTIME) + seconds)
    os.close(fa)
    os.close(fb)
    return 0


def clock_syscalls(ready, seconds):
    import ctypes
    libc, ts = ctypes.CDLL(None, use_errno=True), ctypes.create_string_buffer(16)
    end = time.time() + seconds
    libc.syscall(228, 0, ts)
    open(ready, "w").close()
    while time.time() < end:
        for _ in range(1000):
            libc.syscall(228, 0, ts)
    return 0


def write_stat(p, mode, data):
    with open(p, mode) as f:
        f.write(data)
    os.stat(p)


def churn(d, n, live):
    os.makedirs(d, exist_ok=True)
    keep = [os.path.join(d, "live%d" % i) for i in range(live)]
    for p in keep:
        write_stat(p, "w", "x")
    for i in range(n):
        p = os.path.join(d, "f%d" % i)
        write_stat(p, "w", "x")
        os.unlink(p)
    for p in keep:
        write_stat(p, "a", "y")
    return 0


def live(d, n, rounds, rate):
    """n files kept alive in d, created, then appended to and stat()ed in turn, rounds
    times, paced at rate operations a second (check --forget: more live inodes than
    --max-inodes, none deleted)."""
    os.makedirs(d, exist_ok=True)
    t0, k = time.monotonic(), 0

    def pace():
        nonlocal k
        k += 1
        dt = t0 + k / rate - time.monotonic()
        if dt > 0:
            time.sleep(dt)
    for i in range(n):
        write_stat(os.path.join(d, "f%d" % i), "w", "x")
        pace()
    for _ in range(rounds):
        for i in range(n):
            write_stat(os.path.join(d, "f%d" % i), "a", "y")
            pace()
    return 0


def statflood(b, n, a, k, seconds):
    os.makedirs(b, exist_ok=True)
    names = [os.path.join(b, "f%d" % i) for i in range(n)]
    for p in names:
        open(p, "w").close()
    end = time.time() + seconds

    def wait_for(name):
        while not os.path.exists(os.path.join(a, name)):
            if time.time() > end:
                return False
            time.sleep(0.005)
        return True

    if not wait_for("start"):
        return 1
    for _ in range(3):
        for p in names:
            os.stat(p)
    if not wait_for("go"):
        return 1
    for _ in range(k):
        os.stat(os.path.join(a, "shared"))
    open(os.path.join(a, "done"), "w").close()
    return 0 if wait_for("stop") else 1


def dirvis(d, n, rename=False):
    os.makedirs(d, exist_ok=True)
    same = 0
    for i in range(n):
        if rename and i == 1:
            os.rename(d, d + "-renamed")
            d += "-renamed"
        for c in "ab":
            open(os.path.join(d, c), "w").close()
        os.stat(d)
        os.unlink(os.path.join(d, "a"))
        s1 = os.stat(d).st_ctime_ns
        os.unlink(os.path.join(d, "b"))
        if os.stat(d).st_ctime_ns <= s1:
            same += 1
        time.sleep(0.005)
    print("dirvis: %s's ctime not later after an unlink that followed its stat: %d of %d"
          % (d, same, n))
    return 0


def scoped(a):
    open(os.path.join(a, "start"), "w").close()
    for _ in range(3):
        for i in range(20):
            write_stat(os.path.join(a, "f%d" % i), "a", "x")
    write_stat(os.path.join(a, "shared"), "w", "x")
    open(os.path.join(a, "go"), "w").close()
    end = time.time() + 20
    while not os.path.exists(os.path.join(a, "done")):
        if time.time() > end:
            return 1
        time.sleep(0.01)
    write_stat(os.path.join(a, "shared"), "a", "y")
    open(os.path.join(a, "stop"), "w").close()
    return 0


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "race":
        sys.exit(race(sys.argv[2], float(sys.argv[3])))
    elif cmd == "race-new":
        sys.exit(race_new(sys.argv[2], float(sys.argv[3])))
    elif cmd == "statchmod":
        sys.exit(statchmod(sys.argv[2], float(sys.argv[3])))
    elif cmd == "gran":
        sys.exit(gran(sys.argv[2]))
    elif cmd == "stepback":
        sys.exit(stepback(sys.argv[2], sys.argv[3], float(sys.argv[4])))
    elif cmd == "clockstep":
        sys.exit(clockstep(sys.argv[2], float(sys.argv[3])))
    elif cmd == "churn":
        sys.exit(churn(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    elif cmd == "live":
        sys.exit(live(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])))
    elif cmd == "statflood":
        sys.exit(statflood(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]),
                           float(sys.argv[6])))
    elif cmd == "dirvis":
        sys.exit(dirvis(sys.argv[2], int(sys.argv[3]), sys.argv[4:5] == ["rename"]))
    elif cmd == "scoped":
        sys.exit(scoped(sys.argv[2]))
    elif cmd == "clock-syscalls":
        sys.exit(clock_syscalls(sys.argv[2], float(sys.argv[3])))
    sys.exit(__doc__)
