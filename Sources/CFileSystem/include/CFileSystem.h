#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H
/// File-system calls Swift's Glibc module leaves out (they need _GNU_SOURCE).

/// Non-zero where `cfs_syncfs` flushes a whole file system in one call (Linux).
int cfs_has_syncfs(void);

/// `syncfs(2)`: writes out every dirty file and folder of the file system holding `fd`, and
/// waits until they are on stable storage. Returns 0, or -1 with errno set (ENOSYS where the
/// call does not exist).
int cfs_syncfs(int fd);

/// Opens a regular file without a name in `folder` (O_TMPFILE), for writing. It gets a name
/// only through `cfs_link_fd`, so no reader can see it half-written, and a crash leaves nothing.
/// Returns the descriptor, or -1 with errno set (EOPNOTSUPP, EISDIR or EINVAL where the file
/// system cannot, ENOSYS off Linux).
int cfs_open_unnamed(const char *folder, unsigned int mode);

/// Gives the unnamed file open at `fd` the name `path`; fails with EEXIST, changing nothing,
/// when the name is taken. Returns 0, or -1 with errno set.
int cfs_link_unnamed(int fd, const char *path);

/// `cfs_open_unnamed` in the folder open at `dirfd` (no path looked up).
int cfs_open_unnamed_in(int dirfd, unsigned int mode);

/// Gives the unnamed file open at `fd` the name `name` in the folder open at `dirfd`; fails
/// with EEXIST, changing nothing, when the name is taken. With `by_descriptor` the file is
/// named from its descriptor (AT_EMPTY_PATH: one lookup fewer, but the kernel may refuse it to
/// a process without CAP_DAC_READ_SEARCH, with ENOENT); else through /proc/self/fd. Returns 0,
/// or -1 with errno set.
int cfs_link_unnamed_in(int fd, int dirfd, const char *name, int by_descriptor);

#endif
