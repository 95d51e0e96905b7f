/* sbx-launch: the hostname and the loopback interface of the new namespaces. */
#define _GNU_SOURCE
#include "net.h"
#include "report.h"
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

void
step_hostname(const struct spec *s)
{
  if (s->hostname == NULL)
    return;
  if (sethostname(s->hostname, strlen(s->hostname)) < 0)
    fail_step("hostname", "sethostname %s", s->hostname);
  if (setdomainname("", 0) < 0)
    fail_step("hostname", "setdomainname");
  record("hostname", 1, "%s", s->hostname);
}

/* Brings lo up with one raw RTM_NEWLINK (no libnl, no ip(8)). 0, or an errno. */
int
lo_up(void)
{
  struct
  {
    struct nlmsghdr nh;
    struct ifinfomsg ifi;
  } req;
  struct sockaddr_nl sa;
  char buf[512];
  struct nlmsghdr *nh;
  ssize_t n;
  int fd, err = 0;
  fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0)
    return errno;
  memset(&req, 0, sizeof req);
  req.nh.nlmsg_len = sizeof req;
  req.nh.nlmsg_type = RTM_NEWLINK;
  req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
  req.nh.nlmsg_seq = 1;
  req.ifi.ifi_family = AF_UNSPEC;
  req.ifi.ifi_index = 1; /* lo is always ifindex 1 in a fresh network namespace */
  req.ifi.ifi_flags = IFF_UP;
  req.ifi.ifi_change = IFF_UP;
  memset(&sa, 0, sizeof sa);
  sa.nl_family = AF_NETLINK;
  if (sendto(fd, &req, sizeof req, 0, (struct sockaddr *)&sa, sizeof sa) < 0)
    err = errno;
  if (!err)
    {
      n = TEMP_FAILURE_RETRY(recv(fd, buf, sizeof buf, 0));
      if (n < (ssize_t)sizeof(struct nlmsghdr))
        err = n < 0 ? errno : EPROTO;
    }
  if (!err)
    {
      nh = (struct nlmsghdr *)(void *)buf;
      if (nh->nlmsg_type == NLMSG_ERROR)
        {
          struct nlmsgerr *e = NLMSG_DATA(nh);
          err = -e->error;
        }
    }
  close(fd);
  return err;
}

void
step_loopback(const struct spec *s)
{
  int err;
  if (!s->loopback)
    return;
  err = lo_up();
  if (err)
    {
      errno = err;
      fail_step("loopback", "RTM_NEWLINK lo up");
    }
  record("loopback", 1, "lo up");
}

/* The network namespace is made beside the mounts, not by init's clone. A
 * new one costs the clone ~0.35 ms (clone3 with the sandbox's namespaces:
 * 452 us, without CLONE_NEWNET 114 us; medians of 200 at chrt -f 10), on the
 * path before init can mount anything. So init is cloned without it; the
 * command, which holds every capability over the new user namespace until it
 * drops them, makes it as its first step (unshare) while init builds the
 * root, and says so on a pipe. init joins it (setns through a pidfd of the
 * command) before anything that needs it: the sysfs mount (it shows the
 * mounting namespace's devices, and another user namespace's network is
 * refused), the forwarder's listener and the command's go. No code of the
 * user's runs in the host's network namespace: the command has not exec'd
 * yet, and init runs none. Only with a new user namespace (the command's
 * capabilities over it). */
static int net_pipe[2] = { -1, -1 };
static pid_t net_maker;

int
netns_deferred(const struct spec *s)
{
  return (s->ns_flags & (CLONE_NEWNET | CLONE_NEWUSER)) == (CLONE_NEWNET | CLONE_NEWUSER);
}

void
netns_prepare(const struct spec *s)
{
  if (netns_deferred(s) && pipe2(net_pipe, O_CLOEXEC) < 0)
    fail_step("netns", "pipe2");
}

void
netns_forked(pid_t command)
{
  if (net_pipe[1] < 0)
    return;
  close(net_pipe[1]);
  net_pipe[1] = -1;
  net_maker = command;
}

void
step_netns_make(void)
{
  if (net_pipe[1] < 0)
    return;
  close(net_pipe[0]);
  if (unshare(CLONE_NEWNET) < 0)
    fail_step("netns", "unshare(CLONE_NEWNET) in the command");
  (void)!write(net_pipe[1], "n", 1);
  close(net_pipe[1]);
}

void
join_netns(void)
{
  char c;
  int fd;
  if (net_maker <= 0)
    return;
  if (TEMP_FAILURE_RETRY(read(net_pipe[0], &c, 1)) != 1)
    fail_step("netns", "the command ended before making the network namespace");
  close(net_pipe[0]);
  fd = (int)syscall(SYS_pidfd_open, net_maker, 0);
  if (fd < 0 || setns(fd, CLONE_NEWNET) < 0)
    fail_step("netns", "joining the command's network namespace");
  close(fd);
  net_maker = 0;
  record("netns", 1, "new");
}
