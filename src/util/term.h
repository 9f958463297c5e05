/* SPDX-License-Identifier: GPL-2.0 */
/*
 * term.h - fitting text to the terminal, as procps top and bcc's filetop do: the
 * size from TIOCGWINSZ on the output when it is a terminal, else COLUMNS and LINES,
 * else no limit (a pipe or a file gets full lines); text wrapped at word boundaries.
 */
#ifndef MG_TERM_H
#define MG_TERM_H

#include <stdio.h>

/* A screen size; 0: no limit in that direction. */
struct mg_term {
	int cols, rows;
};

/*
 * The size text written to fd must fit: ioctl(fd, TIOCGWINSZ) when fd is a terminal
 * that reports one, else the environment's COLUMNS and LINES (positive numbers),
 * else 0 (no limit). Asked again at each refresh: a resized window is followed.
 */
struct mg_term mg_term_size(int fd);

/*
 * The width prose is wrapped at: the output's width (mg_text_cols, set by a command
 * from mg_term_size() of its output) up to 100 columns; 100 where it is 0.
 */
extern int mg_text_cols;
int mg_text_width(void);

/*
 * Print text from column col (what the line holds already) and a newline, wrapped at
 * width at spaces, continuation lines indented by indent; a word longer than a line
 * is cut where the line ends, never left past it. width 0: no wrap. Returns the
 * number of lines printed.
 */
int mg_wrap(FILE *f, const char *text, int col, int indent, int width);

#endif
