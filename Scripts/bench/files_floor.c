/* The file system's floor for a first pull: how long creating COUNT small files in one new
 * folder takes this disk, on THREADS threads, then one syncfs to make them durable. No
 * temporary names and no per-file fsync: nothing any client could leave out.
 *
 *   files_floor FOLDER COUNT BYTES [THREADS [atomic]]
 *
 * With `atomic`, each file is made as calgw makes it so that no reader or crash sees half of
 * it: without a name (O_TMPFILE), written, linked in under its name, and stat'ed for the
 * journal's signature.
 *
 * Prints the seconds taken (creation and syncfs together).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int folder, count, threads, atomic;
static char *content;
static size_t bytes;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *create_every_nth(void *first) {
    char name[64];
    for (long i = (long)first; i < count; i += threads) {
        snprintf(name, sizeof name, "bench-%ld@calgw.example.ics", i);
        int fd = atomic ? openat(folder, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644)
                        : openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, content, bytes) != (ssize_t)bytes) { perror(name); exit(1); }
        if (atomic) {
            char proc[64];
            struct stat st;
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
            if (linkat(AT_FDCWD, proc, folder, name, AT_SYMLINK_FOLLOW) != 0 || fstat(fd, &st) != 0) { perror(name); exit(1); }
        }
        close(fd);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: files_floor FOLDER COUNT BYTES [THREADS [atomic]]\n"); return 2; }
    count = atoi(argv[2]);
    bytes = (size_t)atol(argv[3]);
    threads = argc > 4 ? atoi(argv[4]) : 2;
    if (threads < 1 || threads > 64) threads = 2;
    atomic = argc > 5 && strcmp(argv[5], "atomic") == 0;
    if (mkdir(argv[1], 0755) != 0 || (folder = open(argv[1], O_RDONLY | O_DIRECTORY)) < 0) { perror(argv[1]); return 1; }
    content = malloc(bytes);
    memset(content, 'x', bytes);

    double start = now();
    pthread_t workers[64];
    for (long t = 0; t < threads; t++) pthread_create(&workers[t], NULL, create_every_nth, (void *)t);
    for (long t = 0; t < threads; t++) pthread_join(workers[t], NULL);
    if (syncfs(folder) != 0) { perror("syncfs"); return 1; }
    printf("%.3f\n", now() - start);
    return 0;
}
