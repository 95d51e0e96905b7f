/* sbx-launch: the hostname and the loopback interface of the new namespaces. */
#define _GNU_SOURCE
#include "net.h"
#include "report.h"
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>

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
