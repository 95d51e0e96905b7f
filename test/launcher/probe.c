/* Escape attempts that need raw syscalls. Compiled by the tests into a temp
 * dir and run inside the sandbox as `probe NAME [ARG]`.
 *
 * Prints "ESCAPED ..." and exits 1 when the attempt worked, "blocked: ERRNO"
 * and exits 0 when it was refused. Probes whose containment is being killed
 * (int 0x80) never print at all. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif

static int
verdict(long r, const char *what)
{
  if (r >= 0)
    {
      printf("ESCAPED %s returned %ld\n", what, r);
      return 1;
    }
  printf("blocked: %s (%s)\n", strerrorname_np(errno) ? strerrorname_np(errno) : "?", what);
  return 0;
}

static pid_t
sleeper(void)
{
  pid_t p = fork();
  if (p == 0)
    {
      pause();
      _exit(0);
    }
  return p;
}

static int
pty_fd(void)
{
  int fd = open("/dev/ptmx", O_RDWR | O_NOCTTY);
  return fd >= 0 ? fd : 0;
}

int
main(int argc, char **argv)
{
  const char *p = argc > 1 ? argv[1] : "";
  setvbuf(stdout, NULL, _IONBF, 0);

  if (!strcmp(p, "ptrace"))
    {
      pid_t c = sleeper();
      long r = ptrace(PTRACE_ATTACH, c, 0, 0);
      kill(c, SIGKILL);
      return verdict(r, "ptrace(PTRACE_ATTACH)");
    }
  if (!strcmp(p, "traceme"))
    return verdict(ptrace(PTRACE_TRACEME, 0, 0, 0), "ptrace(PTRACE_TRACEME)");
  if (!strcmp(p, "process_vm_writev"))
    {
      static char buf[8] = "x";
      struct iovec l = { buf, 1 }, r = { buf, 1 };
      pid_t c = sleeper();
      long n = process_vm_writev(c, &l, 1, &r, 1, 0);
      kill(c, SIGKILL);
      return verdict(n, "process_vm_writev");
    }
  if (!strcmp(p, "io_uring"))
    {
      struct io_uring_params prm;
      memset(&prm, 0, sizeof prm);
      return verdict(syscall(__NR_io_uring_setup, 8, &prm), "io_uring_setup");
    }
  if (!strcmp(p, "bpf"))
    {
      union bpf_attr a;
      memset(&a, 0, sizeof a);
      a.map_type = BPF_MAP_TYPE_ARRAY;
      a.key_size = 4;
      a.value_size = 4;
      a.max_entries = 1;
      return verdict(syscall(__NR_bpf, BPF_MAP_CREATE, &a, sizeof a), "bpf(BPF_MAP_CREATE)");
    }
  if (!strcmp(p, "perf"))
    {
      struct perf_event_attr a;
      memset(&a, 0, sizeof a);
      a.size = sizeof a;
      a.type = PERF_TYPE_SOFTWARE;
      a.config = PERF_COUNT_SW_CPU_CLOCK;
      return verdict(syscall(__NR_perf_event_open, &a, 0, -1, -1, 0), "perf_event_open");
    }
  if (!strcmp(p, "userfaultfd"))
    return verdict(syscall(__NR_userfaultfd, 0), "userfaultfd");
  if (!strcmp(p, "af_alg"))
    return verdict(socket(AF_ALG, SOCK_SEQPACKET, 0), "socket(AF_ALG)");
  if (!strcmp(p, "af_packet"))
    return verdict(socket(AF_PACKET, SOCK_RAW, 0x0300), "socket(AF_PACKET)");
  if (!strcmp(p, "raw"))
    return verdict(socket(AF_INET, SOCK_RAW, 1), "socket(AF_INET, SOCK_RAW)");
  if (!strcmp(p, "raw6"))
    return verdict(socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, 58), "socket(AF_INET6, SOCK_RAW)");
  if (!strcmp(p, "tiocsti"))
    {
      char c = 'x';
      return verdict(ioctl(pty_fd(), TIOCSTI, &c), "ioctl(TIOCSTI)");
    }
  if (!strcmp(p, "tiocsti_high"))
    {
      /* The kernel truncates the request to 32 bits: a filter comparing all
       * 64 would let this through (CVE-2019-10063). */
      char c = 'x';
      return verdict(syscall(__NR_ioctl, pty_fd(), 0x100000000UL | TIOCSTI, &c), "ioctl(1<<32|TIOCSTI)");
    }
  if (!strcmp(p, "tioclinux"))
    {
      char c = 2;
      return verdict(ioctl(pty_fd(), TIOCLINUX, &c), "ioctl(TIOCLINUX)");
    }
#ifdef __x86_64__
  if (!strcmp(p, "x32"))
    /* x32 ABI unshare(CLONE_NEWUSER): same kernel entry, other numbering. */
    return verdict(syscall(0x40000000 | 272, CLONE_NEWUSER), "x32 unshare");
  if (!strcmp(p, "int80"))
    {
      long r;
      /* i386 getuid32 (199) through the compat entry point. */
      __asm__ volatile("int $0x80" : "=a"(r) : "a"(199L) : "memory");
      printf("ESCAPED int 0x80 returned %ld\n", r);
      return 1;
    }
#endif
  if (!strcmp(p, "clone3"))
    {
      struct clone_args a;
      long r;
      memset(&a, 0, sizeof a);
      a.flags = CLONE_NEWUSER;
      a.exit_signal = SIGCHLD;
      r = syscall(__NR_clone3, &a, sizeof a);
      if (r == 0)
        _exit(0);
      if (r < 0 && errno != ENOSYS)
        printf("note: clone3 failed with %s, expected ENOSYS\n", strerrorname_np(errno));
      return verdict(r, "clone3") || errno != ENOSYS;
    }
  if (!strcmp(p, "clone_newuser"))
    {
      long r = syscall(__NR_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
      if (r == 0)
        _exit(0);
      return verdict(r, "clone(CLONE_NEWUSER)");
    }
  if (!strcmp(p, "unshare"))
    return verdict(unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare(CLONE_NEWUSER|CLONE_NEWNS)");
  if (!strcmp(p, "setns"))
    {
      int fd = open("/proc/1/ns/mnt", O_RDONLY);
      if (fd < 0)
        return verdict(fd, "open /proc/1/ns/mnt");
      return verdict(setns(fd, 0), "setns(/proc/1/ns/mnt)");
    }
  if (!strcmp(p, "mount"))
    return verdict(mount("none", "/tmp", "tmpfs", 0, NULL), "mount tmpfs");
  if (!strcmp(p, "umount"))
    return verdict(umount2("/work", MNT_DETACH), "umount2 /work");
  if (!strcmp(p, "chroot"))
    return verdict(chroot("/tmp"), "chroot");
  if (!strcmp(p, "pivot_root"))
    return verdict(syscall(__NR_pivot_root, "/tmp", "/tmp"), "pivot_root");
  if (!strcmp(p, "kill"))
    return verdict(kill(atoi(argc > 2 ? argv[2] : "1"), SIGKILL), "kill(host pid)");
  if (!strcmp(p, "setuid0"))
    return verdict(setuid(0), "setuid(0)");
  if (!strcmp(p, "mknod"))
    return verdict(mknod("/tmp/sda", S_IFBLK | 0600, makedev(8, 0)), "mknod block device");
  if (!strcmp(p, "keyctl"))
    return verdict(syscall(__NR_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0), "keyctl");
  if (!strcmp(p, "settime"))
    {
      struct timeval tv = { 0, 0 };
      return verdict(settimeofday(&tv, NULL), "settimeofday");
    }
  if (!strcmp(p, "clock_settime"))
    {
      struct timespec ts = { 0, 0 };
      return verdict(clock_settime(CLOCK_REALTIME, &ts), "clock_settime");
    }
  if (!strcmp(p, "personality"))
    return verdict(syscall(__NR_personality, 0), "personality(PER_LINUX)");
  if (!strcmp(p, "open_by_handle_at"))
    {
      char buf[sizeof(struct file_handle) + 8];
      struct file_handle *h = (struct file_handle *)(void *)buf;
      h->handle_bytes = 8;
      h->handle_type = 1;
      memset(h->f_handle, 0, 8);
      return verdict(syscall(__NR_open_by_handle_at, AT_FDCWD, h, O_RDONLY), "open_by_handle_at");
    }
  if (!strcmp(p, "finit_module"))
    return verdict(syscall(__NR_finit_module, 0, "", 0), "finit_module");
  if (!strcmp(p, "reboot"))
    return verdict(syscall(__NR_reboot, 0xfee1dead, 672274793, 0 /* CAD_OFF */, 0), "reboot");
  if (!strcmp(p, "syslog"))
    {
      char buf[64];
      return verdict(syscall(__NR_syslog, 3 /* READ_ALL */, buf, (long)sizeof buf), "syslog(READ_ALL)");
    }
  if (!strcmp(p, "euid"))
    {
      printf("euid %d\n", (int)geteuid());
      return geteuid() == 0;
    }
  if (!strcmp(p, "forks"))
    {
      /* Forks until refused, children parked; prints how many it got. */
      long n = 0, max = argc > 2 ? atol(argv[2]) : 100000;
      while (n < max)
        {
          pid_t c = fork();
          if (c < 0)
            break;
          if (c == 0)
            {
              pause();
              _exit(0);
            }
          n++;
        }
      printf("forks %ld (%s)\n", n, strerrorname_np(errno) ? strerrorname_np(errno) : "-");
      kill(0, SIGKILL);
      return 0;
    }
  /* Set-id modes on files the sandbox makes in /work (they outlive it on the host). */
  if (!strncmp(p, "setid_", 6))
    {
      const char *how = p + 6;
      long r;
      int fd = open("/work/setid-target", O_WRONLY | O_CREAT | O_TRUNC, 0755);
      if (fd < 0)
        {
          printf("note: cannot create /work/setid-target (%s)\n", strerror(errno));
          return 2;
        }
      if (!strcmp(how, "chmod"))
        r = chmod("/work/setid-target", 04755);
      else if (!strcmp(how, "chmod_sgid"))
        r = chmod("/work/setid-target", 02755);
      else if (!strcmp(how, "fchmod"))
        r = fchmod(fd, 04755);
      else if (!strcmp(how, "fchmodat"))
        r = fchmodat(AT_FDCWD, "/work/setid-target", 06755, 0);
      else if (!strcmp(how, "fchmodat2"))
        r = syscall(452, AT_FDCWD, "/work/setid-target", 04755, 0);
      else if (!strcmp(how, "open"))
        r = syscall(__NR_open, "/work/setid-new", O_WRONLY | O_CREAT | O_EXCL, 04755);
      else if (!strcmp(how, "openat"))
        r = openat(AT_FDCWD, "/work/setid-new", O_WRONLY | O_CREAT | O_EXCL, 02755);
      else if (!strcmp(how, "creat"))
        r = creat("/work/setid-new", 04755);
      else if (!strcmp(how, "mkdir"))
        r = mkdir("/work/setid-dir", 02755);
      else if (!strcmp(how, "mknod"))
        r = mknod("/work/setid-new", S_IFREG | 04755, 0);
      else if (!strcmp(how, "plain"))
        {
          /* The control: ordinary modes still work. */
          if (chmod("/work/setid-target", 0700) < 0 || mkdir("/work/plain-dir", 0755) < 0)
            {
              printf("ESCAPED? ordinary chmod/mkdir failed: %s\n", strerror(errno));
              return 1;
            }
          printf("blocked: nothing (ordinary modes work)\n");
          return 0;
        }
      else
        {
          fprintf(stderr, "probe: unknown set-id probe %s\n", how);
          return 2;
        }
      return verdict(r, p);
    }
  if (!strcmp(p, "openat2"))
    {
      struct { uint64_t flags, mode, resolve; } how = { O_WRONLY | O_CREAT, 04755, 0 };
      return verdict(syscall(437, AT_FDCWD, "/work/openat2-new", &how, sizeof how), "openat2");
    }
  if (!strcmp(p, "socketpair_alg"))
    {
      int sv[2];
      return verdict(socketpair(AF_ALG, SOCK_SEQPACKET, 0, sv), "socketpair(AF_ALG)");
    }
  if (!strcmp(p, "keyring"))
    {
      /* The session keyring the sandbox sees must not be the caller's (read with keyctl off). */
      long id = syscall(__NR_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* SESSION */, 0);
      printf("session keyring %ld (%s)\n", id, id < 0 ? strerror(errno) : "ok");
      return 0;
    }
  if (!strcmp(p, "addrs"))
    {
      int local = 0;
      void *heap = malloc(64);
      void *map = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      printf("stack %p heap %p libc %p mmap %p main %p\n", (void *)&local, heap, (void *)&printf, map,
             (void *)&main);
      return 0;
    }
  fprintf(stderr, "probe: unknown probe %s\n", p);
  return 2;
}
