#define _GNU_SOURCE
#include "CFileSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#if defined(__linux__)
int cfs_has_syncfs(void) { return 1; }
int cfs_syncfs(int fd) { return syncfs(fd); }
#else
int cfs_has_syncfs(void) { return 0; }
int cfs_syncfs(int fd) { (void)fd; errno = ENOSYS; return -1; }
#endif

#if defined(__linux__) && defined(O_TMPFILE)
int cfs_open_unnamed(const char *folder, unsigned int mode) {
    return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
}
int cfs_link_unnamed(int fd, const char *path) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}
#else
int cfs_open_unnamed(const char *folder, unsigned int mode) { (void)folder; (void)mode; errno = ENOSYS; return -1; }
int cfs_link_unnamed(int fd, const char *path) { (void)fd; (void)path; errno = ENOSYS; return -1; }
#endif

#if defined(__linux__) && defined(O_TMPFILE)
int cfs_open_unnamed_in(int dirfd, unsigned int mode) {
    return openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
}
int cfs_link_unnamed_in(int fd, int dirfd, const char *name, int by_descriptor) {
    if (by_descriptor) return linkat(fd, "", dirfd, name, AT_EMPTY_PATH);
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW);
}
#else
int cfs_open_unnamed_in(int dirfd, unsigned int mode) { (void)dirfd; (void)mode; errno = ENOSYS; return -1; }
int cfs_link_unnamed_in(int fd, int dirfd, const char *name, int by_descriptor) {
    (void)fd; (void)dirfd; (void)name; (void)by_descriptor; errno = ENOSYS; return -1;
}
#endif
