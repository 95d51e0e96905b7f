/* sbx-launch: the entry. One program, several roles: a resident spawner
 * (--serve), a download carried on the host (--splice), the work tree's
 * fingerprint (--walk) and watcher (--watch), or, by default, one sandbox
 * (launch.c). */
#define _GNU_SOURCE
#include "launch.h"
#include "serve.h"
#include "splice.h"
#include "walk.h"
#include "watch.h"
#include <string.h>

int
main(int argc, char **argv)
{
  if (argc == 2 && strcmp(argv[1], "--serve") == 0)
    return serve();
  if (argc == 2 && strcmp(argv[1], "--splice") == 0)
    return splice_main();
  if (argc >= 2 && strcmp(argv[1], "--walk") == 0)
    return walk_main(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "--watch") == 0)
    return watch_main(argc - 1, argv + 1);
  return launcher_main(argc, argv);
}
