/* sbx-launch: --watch, the work tree's resident watcher (watch.c). */
#ifndef SBX_WATCH_H
#define SBX_WATCH_H

int watch_main(int argc, char **argv);

#endif
