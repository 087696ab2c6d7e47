#define _GNU_SOURCE
#include "CFileSystem.h"
#include <errno.h>
#include <unistd.h>

#if defined(__linux__)
int cfs_has_syncfs(void) { return 1; }
int cfs_syncfs(int fd) { return syncfs(fd); }
#else
int cfs_has_syncfs(void) { return 0; }
int cfs_syncfs(int fd) { (void)fd; errno = ENOSYS; return -1; }
#endif
