/*
 * crashfs: a pass-through FUSE file system that forgets, when it is unmounted, everything a power loss
 * may forget: file data written since the file's last fsync, and directory entries created, renamed or
 * removed since the directory's last fsync. Unmounting it is the simulated power loss.
 *
 *   crashfs <backing dir> <pool dir> <mount point> [FUSE options]
 *
 * Every operation goes to <backing dir> at once, so the mounted tree behaves as a normal file system.
 * Beside it, crashfs keeps what is durable, by inode: the data of a file as of its last fsync (a copy in
 * <pool dir>), and the entries (name, inode, kind) of a directory as of its last fsync. At mount
 * everything in <backing dir> counts as durable. After unmounting, crashfs rebuilds <backing dir> from
 * the durable state alone, starting at its root: a file whose data was never synced comes back empty, a
 * name never synced in its directory does not come back, a name removed without a sync does. This is
 * stricter than ext4 or XFS (which order some metadata with data), as POSIX allows.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

struct entry {
    char *name;
    ino_t ino;
    int is_dir;
};

/* The durable entries of one directory, by the directory's inode. */
struct dir_table {
    ino_t ino;
    size_t count;
    struct entry *entries;
    struct dir_table *next;
};

static int backing_fd;
static char backing_path[PATH_MAX];
static char pool_path[PATH_MAX];
static ino_t root_ino;
static struct dir_table *tables;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *rel(const char *path) {
    return path[1] == '\0' ? "." : path + 1;
}

static struct dir_table *table_of(ino_t ino) {
    for (struct dir_table *t = tables; t; t = t->next) {
        if (t->ino == ino) {
            return t;
        }
    }
    return NULL;
}

/* Makes the entries of the directory open as dir_fd (inode ino) the durable ones. */
static int record_dir(int dir_fd, ino_t ino) {
    DIR *dir = fdopendir(dup(dir_fd));
    if (!dir) {
        return -errno;
    }
    rewinddir(dir);
    size_t count = 0, capacity = 16;
    struct entry *entries = malloc(capacity * sizeof *entries);
    struct dirent *d;
    while ((d = readdir(dir))) {
        if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..")) {
            continue;
        }
        struct stat st;
        if (fstatat(dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
            continue;
        }
        if (count == capacity) {
            entries = realloc(entries, (capacity *= 2) * sizeof *entries);
        }
        entries[count++] = (struct entry) {strdup(d->d_name), st.st_ino, S_ISDIR(st.st_mode)};
    }
    closedir(dir);
    pthread_mutex_lock(&lock);
    struct dir_table *t = table_of(ino);
    if (!t) {
        t = calloc(1, sizeof *t);
        t->ino = ino;
        t->next = tables;
        tables = t;
    }
    for (size_t i = 0; i < t->count; i++) {
        free(t->entries[i].name);
    }
    free(t->entries);
    t->entries = entries;
    t->count = count;
    pthread_mutex_unlock(&lock);
    return 0;
}

static int copy_fd(int from, int to) {
    char buffer[1 << 16];
    off_t offset = 0;
    for (ssize_t n; (n = pread(from, buffer, sizeof buffer, offset)) != 0; offset += n) {
        if (n < 0 || write(to, buffer, n) != n) {
            return -EIO;
        }
    }
    return 0;
}

/* Makes the data of the file open as fd the durable data of its inode. */
static int record_data(int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0) {
        return -errno;
    }
    char tmp[PATH_MAX + 64], final[PATH_MAX + 32];
    snprintf(final, sizeof final, "%s/%lu", pool_path, (unsigned long) st.st_ino);
    snprintf(tmp, sizeof tmp, "%s/%lu.%lu.tmp", pool_path, (unsigned long) st.st_ino, (unsigned long) pthread_self());
    /* The file may be open for writing only: read it through a descriptor of its own. */
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    int in = open(self, O_RDONLY);
    int out = in < 0 ? -1 : open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0) {
        int error = errno;
        if (in >= 0) {
            close(in);
        }
        return -error;
    }
    int rc = copy_fd(in, out);
    close(in);
    close(out);
    if (rc == 0 && rename(tmp, final) != 0) {
        rc = -errno;
    }
    return rc;
}

/* At mount: everything already in the backing directory is durable. */
static void record_tree(int dir_fd, ino_t ino) {
    record_dir(dir_fd, ino);
    struct dir_table *t = table_of(ino);
    for (size_t i = 0; i < t->count; i++) {
        int fd = openat(dir_fd, t->entries[i].name, (t->entries[i].is_dir ? O_DIRECTORY : 0) | O_RDONLY | O_NOFOLLOW);
        if (fd < 0) {
            continue;
        }
        if (t->entries[i].is_dir) {
            record_tree(fd, t->entries[i].ino);
        } else {
            record_data(fd);
        }
        close(fd);
    }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void) st; (void) flag;
    return ftw->level == 0 ? 0 : remove(path);
}

/* After unmount: the backing directory as the durable state has it. */
static void rebuild(const char *path, ino_t ino, int depth) {
    struct dir_table *t = table_of(ino);
    if (!t || depth > 64) {
        return;
    }
    for (size_t i = 0; i < t->count; i++) {
        char child[2 * PATH_MAX];
        snprintf(child, sizeof child, "%s/%s", path, t->entries[i].name);
        if (t->entries[i].is_dir) {
            mkdir(child, 0755);
            rebuild(child, t->entries[i].ino, depth + 1);
            continue;
        }
        int out = open(child, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        char data[PATH_MAX + 32];
        snprintf(data, sizeof data, "%s/%lu", pool_path, (unsigned long) t->entries[i].ino);
        int in = open(data, O_RDONLY);
        if (in >= 0 && out >= 0) {
            copy_fd(in, out);
        }
        if (in >= 0) {
            close(in);
        }
        if (out >= 0) {
            fsync(out);
            close(out);
        }
    }
}

static int cf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    int rc = fi ? fstat(fi->fh, st) : fstatat(backing_fd, rel(path), st, AT_SYMLINK_NOFOLLOW);
    return rc == 0 ? 0 : -errno;
}

static int cf_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void) path; (void) offset; (void) flags;
    DIR *dir = fdopendir(dup(fi->fh));
    if (!dir) {
        return -errno;
    }
    rewinddir(dir);
    for (struct dirent *d; (d = readdir(dir));) {
        fill(buf, d->d_name, NULL, 0, 0);
    }
    closedir(dir);
    return 0;
}

static int cf_mkdir(const char *path, mode_t mode) {
    return mkdirat(backing_fd, rel(path), mode) == 0 ? 0 : -errno;
}

static int cf_unlink(const char *path) {
    return unlinkat(backing_fd, rel(path), 0) == 0 ? 0 : -errno;
}

static int cf_rmdir(const char *path) {
    return unlinkat(backing_fd, rel(path), AT_REMOVEDIR) == 0 ? 0 : -errno;
}

static int cf_rename(const char *from, const char *to, unsigned int flags) {
    return renameat2(backing_fd, rel(from), backing_fd, rel(to), flags) == 0 ? 0 : -errno;
}

static int cf_link(const char *from, const char *to) {
    return linkat(backing_fd, rel(from), backing_fd, rel(to), 0) == 0 ? 0 : -errno;
}

static int cf_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    int rc = fi ? fchmod(fi->fh, mode) : fchmodat(backing_fd, rel(path), mode, 0);
    return rc == 0 ? 0 : -errno;
}

static int cf_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    if (fi) {
        return ftruncate(fi->fh, size) == 0 ? 0 : -errno;
    }
    int fd = openat(backing_fd, rel(path), O_WRONLY);
    if (fd < 0) {
        return -errno;
    }
    int rc = ftruncate(fd, size) == 0 ? 0 : -errno;
    close(fd);
    return rc;
}

static int cf_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    int rc = fi ? futimens(fi->fh, tv) : utimensat(backing_fd, rel(path), tv, AT_SYMLINK_NOFOLLOW);
    return rc == 0 ? 0 : -errno;
}

static int cf_open(const char *path, struct fuse_file_info *fi) {
    int fd = openat(backing_fd, rel(path), fi->flags & ~O_NOFOLLOW);
    if (fd < 0) {
        return -errno;
    }
    fi->fh = fd;
    return 0;
}

static int cf_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    int fd = openat(backing_fd, rel(path), fi->flags | O_CREAT, mode);
    if (fd < 0) {
        return -errno;
    }
    fi->fh = fd;
    return 0;
}

static int cf_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void) path;
    ssize_t n = pread(fi->fh, buf, size, offset);
    return n < 0 ? -errno : (int) n;
}

static int cf_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void) path;
    ssize_t n = pwrite(fi->fh, buf, size, offset);
    return n < 0 ? -errno : (int) n;
}

static int cf_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *fi) {
    (void) path;
    return fallocate(fi->fh, mode, offset, length) == 0 ? 0 : -errno;
}

static int cf_statfs(const char *path, struct statvfs *st) {
    (void) path;
    return fstatvfs(backing_fd, st) == 0 ? 0 : -errno;
}

static int cf_release(const char *path, struct fuse_file_info *fi) {
    (void) path;
    close(fi->fh);
    return 0;
}

static int cf_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void) path; (void) datasync;
    return record_data(fi->fh);
}

static int cf_opendir(const char *path, struct fuse_file_info *fi) {
    int fd = openat(backing_fd, rel(path), O_RDONLY | O_DIRECTORY);
    if (fd < 0) {
        return -errno;
    }
    fi->fh = fd;
    return 0;
}

static int cf_releasedir(const char *path, struct fuse_file_info *fi) {
    (void) path;
    close(fi->fh);
    return 0;
}

static int cf_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) {
    (void) path; (void) datasync;
    struct stat st;
    if (fstat(fi->fh, &st) != 0) {
        return -errno;
    }
    return record_dir(fi->fh, st.st_ino);
}

static void *cf_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void) conn;
    cfg->use_ino = 1;
    cfg->nullpath_ok = 1;
    return NULL;
}

static const struct fuse_operations operations = {
    .init = cf_init,
    .getattr = cf_getattr,
    .readdir = cf_readdir,
    .mkdir = cf_mkdir,
    .unlink = cf_unlink,
    .rmdir = cf_rmdir,
    .rename = cf_rename,
    .link = cf_link,
    .chmod = cf_chmod,
    .truncate = cf_truncate,
    .utimens = cf_utimens,
    .open = cf_open,
    .create = cf_create,
    .read = cf_read,
    .write = cf_write,
    .fallocate = cf_fallocate,
    .statfs = cf_statfs,
    .release = cf_release,
    .fsync = cf_fsync,
    .opendir = cf_opendir,
    .releasedir = cf_releasedir,
    .fsyncdir = cf_fsyncdir,
};

int main(int argc, char *argv[]) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s <backing dir> <pool dir> <mount point> [FUSE options]\n", argv[0]);
        return 2;
    }
    if (!realpath(argv[1], backing_path) || !realpath(argv[2], pool_path)) {
        perror("crashfs: backing or pool directory");
        return 2;
    }
    backing_fd = open(backing_path, O_RDONLY | O_DIRECTORY);
    struct stat st;
    if (backing_fd < 0 || fstat(backing_fd, &st) != 0) {
        perror("crashfs: backing directory");
        return 2;
    }
    root_ino = st.st_ino;
    record_tree(backing_fd, root_ino);

    char *fuse_argv[argc];
    int fuse_argc = 0;
    fuse_argv[fuse_argc++] = argv[0];
    fuse_argv[fuse_argc++] = argv[3];
    for (int i = 4; i < argc; i++) {
        fuse_argv[fuse_argc++] = argv[i];
    }
    int rc = fuse_main(fuse_argc, fuse_argv, &operations, NULL);

    /* Unmounted: what was not synced is lost. */
    nftw(backing_path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    rebuild(backing_path, root_ino, 0);
    nftw(pool_path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    fprintf(stderr, "crashfs: unmounted; %s now holds only what was synced\n", backing_path);
    return rc;
}
