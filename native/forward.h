/* sbx-launch: --forward-unix, the sandbox's end of --allow-host (forward.c). */
#ifndef SBX_FORWARD_H
#define SBX_FORWARD_H
#include "spec.h"

void step_forward(const struct spec *s);

#endif
