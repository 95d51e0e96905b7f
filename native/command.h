/* sbx-launch: the command process's own steps, then execve (command.c). */
#ifndef SBX_COMMAND_H
#define SBX_COMMAND_H
#include "spec.h"

void run_command(const struct spec *s, int go_fd) __attribute__((noreturn));

#endif
