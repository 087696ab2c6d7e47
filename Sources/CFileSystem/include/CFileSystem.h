#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H
/// File-system calls Swift's Glibc module leaves out (they need _GNU_SOURCE).

/// Non-zero where `cfs_syncfs` flushes a whole file system in one call (Linux).
int cfs_has_syncfs(void);

/// `syncfs(2)`: writes out every dirty file and folder of the file system holding `fd`, and
/// waits until they are on stable storage. Returns 0, or -1 with errno set (ENOSYS where the
/// call does not exist).
int cfs_syncfs(int fd);

#endif
