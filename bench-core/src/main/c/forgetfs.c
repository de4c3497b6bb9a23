/*
 * forgetfs: a pass-through FUSE file system that can forget what was never made durable.
 *
 *   forgetfs [write-through] BACKING MOUNTPOINT GRAVEYARD
 *
 * Every operation goes straight through to BACKING (an ordinary directory), so reads need no
 * merging and memory holds only what a power cut would have to undo. Per file (keyed by the
 * backing inode, so renames and hard links need nothing) it keeps an undo log: the size the file
 * had at its last sync (its durable size) and, for each 4 KiB block below that size that was
 * changed since, the block's bytes as they were at that sync. Appends past the durable size cost
 * nothing: the rollback truncates them. fsync and fdatasync (msync(MS_SYNC) reaches FUSE as
 * FSYNC too) drop the file's log; so does every write to a file opened O_SYNC or O_DSYNC, which
 * the kernel follows with an FSYNC of its own (generic_write_sync). That is the model of a disk
 * with a volatile write cache in front of it, seen at the worst moment: nothing unsynced
 * survives. The kernel's writeback cache is on (see fs_init), so writes reach this process
 * late, in whole pages, and a power cut also drops those still in the kernel.
 *
 * Directory entries follow a journalling file system (ext4 in its default data=ordered mode,
 * XFS): namespace changes (create, mkdir, mknod, symlink, link, unlink, rmdir, rename) are kept
 * in one ordered log, and any sync (fsync, fdatasync or fsync of a directory, of any file)
 * makes every earlier change durable, as a journal commit carries them all. A power cut undoes
 * the changes made since the last sync, newest first. So a file created and never followed by a
 * sync vanishes; one created and followed by an fsync of another file survives, empty if its
 * own data was never synced (the zero-length files ext4 is known for). Unlinked files and the
 * target a rename replaces are kept in GRAVEYARD (same file system as BACKING) until a sync
 * commits their removal. Not modelled: ext4's own 5 s journal commit and 30 s write-back (we
 * keep the worst case the promises allow), timestamps, modes, owners and extended attributes
 * (they pass through and survive), syncfs(2) and sync(2) (FUSE does not forward them).
 *
 * Control, on stdin and stdout, one line each (stderr is a log):
 *   on start it prints "ready CONNECTION" once mounted, or "error MESSAGE" and exits 1;
 *   "cut"    a power cut: the caller has already SIGKILLed every process using the mount. It
 *            aborts the FUSE connection (/sys/fs/fuse/connections/N/abort) so that no request
 *            still in the kernel, such as a dead process's dirty mmap page, arrives later; waits
 *            for the requests already taken; rolls BACKING back; detaches the mount; prints
 *            "cut files=F restored=R discarded=D undone=U" and exits 0. The caller mounts
 *            afresh before restarting anything: the kernel's page cache of the old mount,
 *            which holds what was forgotten, goes with it.
 *   "status" prints "status files=F saved=S pending=P" (files with unsynced changes, bytes of
 *            saved blocks, namespace changes not yet durable).
 *   "slow NS"         every fsync, fdatasync and fsync of a directory (so every write to a file
 *                     opened O_SYNC or O_DSYNC, and msync) waits NS nanoseconds before it is done;
 *                     "slow 0" lifts it, releasing the requests that wait. A close, which makes
 *                     nothing durable, is not slowed.
 *   "slow-writes NS"  every WRITE request waits NS nanoseconds: with the writeback cache, one per
 *                     write-back of up to 1 MiB, not one per write(2).
 *   "full on"         what needs a new block fails with ENOSPC: a WRITE past the file's last
 *                     4 KiB block or into a hole, a create, mkdir, mknod, symlink or link, a
 *                     fallocate that allocates; statfs reports no free blocks. Reads, overwrites
 *                     in place, syncs, truncates, unlinks, rmdirs and renames still work.
 *                     "full off" gives the space back.
 *   "sick"   does nothing.
 *            Each of these four prints "sick slow=NS slow-writes=NS full=0|1 held=H", the state it
 *            left and the requests held by a slow disk as it was read (H is only for tests).
 *            A clean stop lifts both first, so that held requests end and the unmount goes
 *            through; a cut need not: the abort ends every request, and the daemon with it.
 *   end of input (the owner closed it, or died): a clean stop. Nothing is rolled back; the
 *            mount is unmounted (lazily if still busy) and it prints "stopped" and exits 0.
 * SIGTERM and SIGINT stop it cleanly too.
 *
 * The mount's source (fsname) is "msgbench-forgetfs:PID:START" (START: the daemon's start
 * time in clock ticks, field 22 of /proc/PID/stat), so that a later run can tell a mount whose
 * daemon was killed (pids are reused) and detach it.
 *
 * The high-level (path) API of libfuse 3 rather than the low-level one: it keeps the inode
 * bookkeeping inside libfuse, and a request's round trip, not the path lookup, is what costs
 * (docs/forgetful-disk.md has the measurements, and why C on libfuse 3 rather than Java).
 */
#define FUSE_USE_VERSION 312 /* libfuse 3.12 or newer: Debian 12 has 3.14 */
#define _GNU_SOURCE

#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

#define BLOCK 4096
/* below this many blocks a save reads every block; above, it asks the file system for holes */
#define HOLE_SCAN_BLOCKS 16
#define CONNECTIONS "/sys/fs/fuse/connections"
/* worker threads at most (libfuse's default is 10): a request a slow disk holds keeps one */
#define MAX_THREADS 64

static int root_fd;
static int grave_fd;
static int write_through;
static const char *mountpoint;
static char abort_path[PATH_MAX];
static int abort_fd = -1; /* opened at mount: it outlives the private fusectl mount it came from */

/* ------------------------------------------------------------------------------------------
 * The gate: a power cut must see no operation change BACKING after the rollback. The abort
 * stops new requests, but requests already read by worker threads still run; every operation
 * that changes BACKING (or commits) passes the gate, and the cut waits until none is inside.
 */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_empty = PTHREAD_COND_INITIALIZER;
static int gate_inside;
static int cutting;

static int enter(void)
{
	pthread_mutex_lock(&gate_lock);
	int open = !cutting;
	if (open) {
		gate_inside++;
	}
	pthread_mutex_unlock(&gate_lock);
	return open;
}

static void leave(void)
{
	pthread_mutex_lock(&gate_lock);
	if (--gate_inside == 0) {
		pthread_cond_broadcast(&gate_empty);
	}
	pthread_mutex_unlock(&gate_lock);
}

#define ENTER() do { if (!enter()) return -EIO; } while (0)

/* ------------------------------------------------------------------------------------------
 * Sickness, on command: a slow disk (every durable operation, optionally every write request,
 * takes longer) and a full one (what needs a new block fails with ENOSPC). Nothing is failed or
 * slowed unless the owner asks.
 */
static pthread_mutex_t sick_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sick_changed;    /* on CLOCK_MONOTONIC; see main */
static int64_t slow_sync_ns;           /* added to every fsync, fdatasync and fsync of a directory */
static int64_t slow_write_ns;          /* added to every WRITE request */
static int full;
static int held;                       /* requests lingering now */

/*
 * Holds a request for *delay nanoseconds from its start. A change of the delay counts at once,
 * also for requests already waiting: lifting it releases them, so neither a heal nor a stop waits
 * for a long delay to run out.
 */
static void linger(const int64_t *delay)
{
	struct timespec start, until;
	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&sick_lock);
	if (*delay > 0) {
		held++;
		while (*delay > 0) {
			long nsec = start.tv_nsec + (long)(*delay % 1000000000);
			until.tv_sec = start.tv_sec + (time_t)(*delay / 1000000000) + nsec / 1000000000;
			until.tv_nsec = nsec % 1000000000;
			if (pthread_cond_timedwait(&sick_changed, &sick_lock, &until) == ETIMEDOUT) {
				break;
			}
		}
		held--;
	}
	pthread_mutex_unlock(&sick_lock);
}

static int is_full(void)
{
	pthread_mutex_lock(&sick_lock);
	int res = full;
	pthread_mutex_unlock(&sick_lock);
	return res;
}

static void set_sickness(int64_t sync_ns, int64_t write_ns, int no_space)
{
	pthread_mutex_lock(&sick_lock);
	slow_sync_ns = sync_ns;
	slow_write_ns = write_ns;
	full = no_space;
	pthread_cond_broadcast(&sick_changed);
	pthread_mutex_unlock(&sick_lock);
}

/*
 * Whether writing [offset, offset + size) of fd's file needs a block the file does not have yet:
 * one past its last block, or one in a hole. Blocks are the layer's 4 KiB; space preallocated
 * past the end (fallocate with FALLOC_FL_KEEP_SIZE) is not looked for.
 */
static int needs_space(int fd, off_t offset, off_t size)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		return 1;
	}
	off_t end = offset + size;
	if (end > (st.st_size + BLOCK - 1) / BLOCK * BLOCK) {
		return 1;
	}
	off_t hole = lseek(fd, offset, SEEK_HOLE);
	return hole >= 0 && hole < end && hole < st.st_size;
}

/* ------------------------------------------------------------------------------------------
 * Undo logs of file data, one per backing inode with unsynced changes.
 */
struct saved {
	uint64_t block;
	uint32_t len;          /* bytes of the block below the durable size */
	char *data;            /* NULL: the block was all zeros (a hole, or preallocated space) */
	struct saved *next;
};

struct fstate {
	ino_t ino;
	int fd;                /* our own read-write descriptor: saves and the rollback use it */
	off_t durable;         /* the size at the last sync */
	int refs;              /* the table's reference plus one per operation using it */
	pthread_mutex_t lock;  /* held across save and write, so a sync waits for writes in flight */
	struct saved **buckets;
	size_t nbuckets;
	size_t nsaved;
	struct fstate *next;
};

#define TABLE 4096
static struct fstate *table[TABLE];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t dirty_files;
static uint64_t saved_bytes;

static void state_free(struct fstate *s)
{
	for (size_t i = 0; i < s->nbuckets; i++) {
		struct saved *e = s->buckets[i];
		while (e) {
			struct saved *next = e->next;
			free(e->data);
			free(e);
			e = next;
		}
	}
	free(s->buckets);
	close(s->fd);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* Called with table_lock held. */
static void state_unref_locked(struct fstate *s)
{
	if (--s->refs == 0) {
		state_free(s);
	}
}

/* A read-write descriptor of the same inode as fd, whatever mode fd was opened in. */
static int reopen_rw(int fd)
{
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	return open(proc, O_RDWR | O_CLOEXEC);
}

/*
 * The undo log of fd's inode, created when the file is clean (its durable size is then its
 * size now), returned locked and referenced. NULL with errno set on failure.
 */
static struct fstate *state_acquire(int fd, ino_t ino)
{
	pthread_mutex_lock(&table_lock);
	struct fstate **slot = &table[ino % TABLE];
	struct fstate *s = *slot;
	while (s && s->ino != ino) {
		s = s->next;
	}
	if (!s) {
		struct stat st;
		int own = -1;
		s = calloc(1, sizeof *s);
		if (!s || fstat(fd, &st) != 0 || (own = reopen_rw(fd)) < 0) {
			int err = errno;
			free(s);
			pthread_mutex_unlock(&table_lock);
			errno = err ? err : ENOMEM;
			return NULL;
		}
		s->ino = ino;
		s->fd = own;
		s->durable = st.st_size;
		s->refs = 1;
		pthread_mutex_init(&s->lock, NULL);
		s->next = *slot;
		*slot = s;
		dirty_files++;
	}
	s->refs++;
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_lock(&s->lock);
	return s;
}

static void state_release(struct fstate *s)
{
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_lock(&table_lock);
	state_unref_locked(s);
	pthread_mutex_unlock(&table_lock);
}

/* The file is durable as it is now: forget its undo log (waiting for a write in flight). */
static void state_commit(ino_t ino)
{
	pthread_mutex_lock(&table_lock);
	struct fstate **slot = &table[ino % TABLE];
	while (*slot && (*slot)->ino != ino) {
		slot = &(*slot)->next;
	}
	struct fstate *s = *slot;
	if (!s) {
		pthread_mutex_unlock(&table_lock);
		return;
	}
	*slot = s->next;
	dirty_files--;
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_lock(&s->lock);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; i < s->nbuckets; i++) {
		for (struct saved *e = s->buckets[i]; e; e = e->next) {
			saved_bytes -= e->len;
		}
	}
	state_unref_locked(s);
	pthread_mutex_unlock(&table_lock);
}

static struct saved *saved_find(struct fstate *s, uint64_t block)
{
	if (s->nbuckets == 0) {
		return NULL;
	}
	for (struct saved *e = s->buckets[block % s->nbuckets]; e; e = e->next) {
		if (e->block == block) {
			return e;
		}
	}
	return NULL;
}

static int saved_add(struct fstate *s, struct saved *e)
{
	if (s->nsaved >= s->nbuckets * 2) {
		size_t n = s->nbuckets ? s->nbuckets * 4 : 64;
		struct saved **grown = calloc(n, sizeof *grown);
		if (!grown) {
			return -ENOMEM;
		}
		for (size_t i = 0; i < s->nbuckets; i++) {
			struct saved *x = s->buckets[i];
			while (x) {
				struct saved *next = x->next;
				x->next = grown[x->block % n];
				grown[x->block % n] = x;
				x = next;
			}
		}
		free(s->buckets);
		s->buckets = grown;
		s->nbuckets = n;
	}
	e->next = s->buckets[e->block % s->nbuckets];
	s->buckets[e->block % s->nbuckets] = e;
	s->nsaved++;
	pthread_mutex_lock(&table_lock);
	saved_bytes += e->len;
	pthread_mutex_unlock(&table_lock);
	return 0;
}

static int all_zero(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i]) {
			return 0;
		}
	}
	return 1;
}

/*
 * Saves, before they change for the first time since the last sync, the blocks that hold bytes
 * of [from, to) below the durable size. Blocks past the durable size need nothing (the
 * rollback truncates), and neither do holes: whatever is written into one later reads as zeros
 * when saved, which is what the hole held.
 */
static int save_range(struct fstate *s, off_t from, off_t to)
{
	if (to > s->durable) {
		to = s->durable;
	}
	if (from >= to) {
		return 0;
	}
	uint64_t last = (uint64_t)(to - 1) / BLOCK;
	int scan = last - (uint64_t)from / BLOCK >= HOLE_SCAN_BLOCKS;
	char buf[BLOCK];
	for (uint64_t b = (uint64_t)from / BLOCK; b <= last; b++) {
		off_t start = (off_t)b * BLOCK;
		if (saved_find(s, b)) {
			continue;
		}
		if (scan) {
			off_t data = lseek(s->fd, start, SEEK_DATA);
			if (data < 0 && errno == ENXIO) {
				break; /* only holes, or nothing, from here to the end of the file */
			}
			if (data > start) {
				if (data >= to) {
					break;
				}
				b = (uint64_t)data / BLOCK - 1;
				continue;
			}
		}
		uint32_t len = (uint32_t)(s->durable - start < BLOCK ? s->durable - start : BLOCK);
		ssize_t got = pread(s->fd, buf, len, start);
		if (got < 0) {
			return -errno;
		}
		memset(buf + got, 0, len - got); /* past the current end: zeros once extended again */
		struct saved *e = calloc(1, sizeof *e);
		if (!e) {
			return -ENOMEM;
		}
		e->block = b;
		e->len = len;
		if (!all_zero(buf, len)) {
			e->data = malloc(len);
			if (!e->data) {
				free(e);
				return -ENOMEM;
			}
			memcpy(e->data, buf, len);
		}
		int res = saved_add(s, e);
		if (res) {
			free(e->data);
			free(e);
			return res;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------------------------------
 * The namespace journal: changes since the last sync, oldest first.
 */
enum nsop { NS_CREATE, NS_UNLINK, NS_RENAME, NS_EXCHANGE };

struct nsrec {
	enum nsop op;
	int dir;               /* NS_CREATE: a directory (undone with rmdir) */
	char *path;            /* created or unlinked name; a rename's source */
	char *path2;           /* a rename's target */
	char *grave;           /* where the unlinked or replaced entry waits, or NULL */
};

static pthread_mutex_t ns_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nsrec *journal;
static size_t journal_len, journal_cap;
static uint64_t grave_counter;

static int journal_add(enum nsop op, int dir, const char *path, const char *path2, const char *grave)
{
	if (journal_len == journal_cap) {
		size_t cap = journal_cap ? journal_cap * 2 : 64;
		struct nsrec *grown = realloc(journal, cap * sizeof *grown);
		if (!grown) {
			return -ENOMEM;
		}
		journal = grown;
		journal_cap = cap;
	}
	struct nsrec *r = &journal[journal_len++];
	r->op = op;
	r->dir = dir;
	r->path = strdup(path);
	r->path2 = path2 ? strdup(path2) : NULL;
	r->grave = grave ? strdup(grave) : NULL;
	return 0;
}

static void grave_name(char *out, size_t size)
{
	snprintf(out, size, "g%" PRIu64, ++grave_counter);
}

/* Every namespace change so far is durable: empty the graveyard of their victims. */
static void journal_commit(void)
{
	pthread_mutex_lock(&ns_lock);
	for (size_t i = 0; i < journal_len; i++) {
		struct nsrec *r = &journal[i];
		if (r->grave) {
			struct stat st;
			if (fstatat(grave_fd, r->grave, &st, AT_SYMLINK_NOFOLLOW) == 0) {
				if (S_ISDIR(st.st_mode)) {
					unlinkat(grave_fd, r->grave, AT_REMOVEDIR);
				} else {
					unlinkat(grave_fd, r->grave, 0);
					if (st.st_nlink == 1) {
						/* gone for good: its inode number may be reused by a new file */
						state_commit(st.st_ino);
					}
				}
			}
		}
		free(r->path);
		free(r->path2);
		free(r->grave);
	}
	journal_len = 0;
	pthread_mutex_unlock(&ns_lock);
}

/* ------------------------------------------------------------------------------------------
 * Open files.
 */
struct handle {
	int fd;
	ino_t ino;
};

#define HANDLE(fi) ((struct handle *)(uintptr_t)(fi)->fh)

static const char *rel(const char *path)
{
	return path[1] ? path + 1 : ".";
}

/* After a sync of anything: the file's data (if given) and every namespace change. */
static void commit(ino_t ino, int has_file)
{
	if (has_file) {
		state_commit(ino);
	}
	journal_commit();
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	int res = fi ? fstat(HANDLE(fi)->fd, st) : fstatat(root_fd, rel(path), st, AT_SYMLINK_NOFOLLOW);
	return res == 0 ? 0 : -errno;
}

static int fs_access(const char *path, int mask)
{
	return faccessat(root_fd, rel(path), mask, 0) == 0 ? 0 : -errno;
}

static int fs_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n = readlinkat(root_fd, rel(path), buf, size - 1);
	if (n < 0) {
		return -errno;
	}
	buf[n] = '\0';
	return 0;
}

struct dirhandle {
	DIR *dp;
	struct dirent *entry;
	off_t offset;
};

static int fs_opendir(const char *path, struct fuse_file_info *fi)
{
	int fd = openat(root_fd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		return -errno;
	}
	struct dirhandle *d = calloc(1, sizeof *d);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	d->dp = fdopendir(fd);
	if (!d->dp) {
		int err = errno;
		close(fd);
		free(d);
		return -err;
	}
	fi->fh = (uintptr_t)d;
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t offset,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)path;
	(void)flags;
	struct dirhandle *d = (struct dirhandle *)(uintptr_t)fi->fh;
	if (offset != d->offset) {
		seekdir(d->dp, offset);
		d->entry = NULL;
		d->offset = offset;
	}
	while (1) {
		if (!d->entry) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (!d->entry) {
				return errno ? -errno : 0;
			}
		}
		struct stat st;
		memset(&st, 0, sizeof st);
		st.st_ino = d->entry->d_ino;
		st.st_mode = DTTOIF(d->entry->d_type);
		off_t next = telldir(d->dp);
		if (filler(buf, d->entry->d_name, &st, next, 0)) {
			return 0;
		}
		d->entry = NULL;
		d->offset = next;
	}
}

static int fs_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	struct dirhandle *d = (struct dirhandle *)(uintptr_t)fi->fh;
	closedir(d->dp);
	free(d);
	return 0;
}

static int fs_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	struct dirhandle *d = (struct dirhandle *)(uintptr_t)fi->fh;
	linger(&slow_sync_ns);
	ENTER();
	int fd = dirfd(d->dp);
	int res = datasync ? fdatasync(fd) : fsync(fd);
	res = res == 0 ? 0 : -errno;
	if (res == 0) {
		commit(0, 0);
	}
	leave();
	return res;
}

/* A namespace change that creates rel(path): done, then journalled, under ns_lock. */
static int created(const char *path, int dir, int res)
{
	if (res != 0) {
		return -errno;
	}
	return journal_add(NS_CREATE, dir, rel(path), NULL, NULL);
}

/*
 * A full disk refuses every new name: a directory entry may need a block, and a new directory
 * always does. (ext4 may still fit a file's entry into a directory block it has.)
 */
#define NEEDS_NAME() do { if (is_full()) return -ENOSPC; } while (0)

static int fs_mknod(const char *path, mode_t mode, dev_t rdev)
{
	NEEDS_NAME();
	ENTER();
	pthread_mutex_lock(&ns_lock);
	int res = created(path, 0, mknodat(root_fd, rel(path), mode, rdev));
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

static int fs_mkdir(const char *path, mode_t mode)
{
	NEEDS_NAME();
	ENTER();
	pthread_mutex_lock(&ns_lock);
	int res = created(path, 1, mkdirat(root_fd, rel(path), mode));
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

static int fs_symlink(const char *target, const char *path)
{
	NEEDS_NAME();
	ENTER();
	pthread_mutex_lock(&ns_lock);
	int res = created(path, 0, symlinkat(target, root_fd, rel(path)));
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

static int fs_link(const char *from, const char *to)
{
	NEEDS_NAME();
	ENTER();
	pthread_mutex_lock(&ns_lock);
	int res = created(to, 0, linkat(root_fd, rel(from), root_fd, rel(to), 0));
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

/* Moves rel(path) into the graveyard, where it waits for a sync (removed) or a cut (restored). */
static int bury(const char *path)
{
	char grave[32];
	grave_name(grave, sizeof grave);
	if (renameat(root_fd, rel(path), grave_fd, grave) != 0) {
		return -errno;
	}
	return journal_add(NS_UNLINK, 0, rel(path), NULL, grave);
}

static int fs_unlink(const char *path)
{
	ENTER();
	pthread_mutex_lock(&ns_lock);
	struct stat st;
	int res = fstatat(root_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW) != 0 ? -errno
	        : S_ISDIR(st.st_mode) ? -EISDIR
	        : bury(path);
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

static int is_empty_dir(const char *path)
{
	int fd = openat(root_fd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		return -errno;
	}
	DIR *dp = fdopendir(fd);
	if (!dp) {
		int err = errno;
		close(fd);
		return -err;
	}
	int res = 0;
	struct dirent *e;
	while ((e = readdir(dp)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			res = -ENOTEMPTY;
			break;
		}
	}
	closedir(dp);
	return res;
}

static int fs_rmdir(const char *path)
{
	ENTER();
	pthread_mutex_lock(&ns_lock);
	int res = is_empty_dir(path);
	if (res == 0) {
		res = bury(path);
	}
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

static int fs_rename(const char *from, const char *to, unsigned int flags)
{
	ENTER();
	pthread_mutex_lock(&ns_lock);
	int res;
	if (flags & RENAME_EXCHANGE) {
		res = renameat2(root_fd, rel(from), root_fd, rel(to), flags) != 0 ? -errno
		    : journal_add(NS_EXCHANGE, 0, rel(from), rel(to), NULL);
		goto out;
	}
	struct stat src, dst;
	if (fstatat(root_fd, rel(from), &src, AT_SYMLINK_NOFOLLOW) != 0) {
		res = -errno;
		goto out;
	}
	int replaces = fstatat(root_fd, rel(to), &dst, AT_SYMLINK_NOFOLLOW) == 0;
	if (replaces && dst.st_ino == src.st_ino) {
		/* two names of one file: rename(2) does nothing, and so is there nothing to undo */
		res = renameat2(root_fd, rel(from), root_fd, rel(to), flags) == 0 ? 0 : -errno;
		goto out;
	}
	char grave[32] = "";
	if (replaces && !(flags & RENAME_NOREPLACE)) {
		grave_name(grave, sizeof grave);
		if (S_ISDIR(dst.st_mode)) {
			/* rename(2) replaces only an empty directory; check as it would, then set it aside */
			res = S_ISDIR(src.st_mode) ? is_empty_dir(to) : -EISDIR;
			if (res == 0 && renameat(root_fd, rel(to), grave_fd, grave) != 0) {
				res = -errno;
			}
		} else {
			/* a second name for the replaced file keeps it, and the rename stays atomic */
			res = S_ISDIR(src.st_mode) ? -ENOTDIR
			    : linkat(root_fd, rel(to), grave_fd, grave, 0) == 0 ? 0 : -errno;
		}
		if (res != 0) {
			goto out;
		}
	}
	if (renameat2(root_fd, rel(from), root_fd, rel(to), flags) != 0) {
		res = -errno;
		if (grave[0]) {
			if (S_ISDIR(dst.st_mode)) {
				renameat(grave_fd, grave, root_fd, rel(to));
			} else {
				unlinkat(grave_fd, grave, 0);
			}
		}
		goto out;
	}
	res = journal_add(NS_RENAME, 0, rel(from), rel(to), grave[0] ? grave : NULL);
out:
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

static int fs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	ENTER();
	int res = fi ? fchmod(HANDLE(fi)->fd, mode) : fchmodat(root_fd, rel(path), mode, 0);
	leave();
	return res == 0 ? 0 : -errno;
}

static int fs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	ENTER();
	int res = fi ? fchown(HANDLE(fi)->fd, uid, gid)
	        : fchownat(root_fd, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW);
	leave();
	return res == 0 ? 0 : -errno;
}

static int fs_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	ENTER();
	int res = fi ? futimens(HANDLE(fi)->fd, tv) : utimensat(root_fd, rel(path), tv, AT_SYMLINK_NOFOLLOW);
	leave();
	return res == 0 ? 0 : -errno;
}

/* Sets the size of fd's file, saving first what a shrink destroys. Inside the gate. */
static int resize(int fd, off_t size)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		return -errno;
	}
	struct fstate *s = state_acquire(fd, st.st_ino);
	if (!s) {
		return -errno;
	}
	int res = save_range(s, size, s->durable);
	if (res == 0 && ftruncate(s->fd, size) != 0) {
		res = -errno;
	}
	state_release(s);
	return res;
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	ENTER();
	int res;
	if (fi) {
		res = resize(HANDLE(fi)->fd, size);
	} else {
		int fd = openat(root_fd, rel(path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		res = fd < 0 ? -errno : resize(fd, size);
		if (fd >= 0) {
			close(fd);
		}
	}
	leave();
	return res;
}

/*
 * Opens rel(path) for a handle. O_APPEND is left out: the kernel sends every write with the
 * offset it lands at, and our undo log must write (and save) exactly there. O_TRUNC is done
 * through resize, which saves what it destroys. Write-only becomes read-write: with the
 * writeback cache the kernel reads a page before it writes part of it. O_SYNC and O_DSYNC are
 * left out too: the kernel follows each such write with an FSYNC, which syncs and commits, and
 * writes back pages through any open handle of the file, not only the one that wrote them.
 */
static int open_handle(const char *path, int flags, mode_t mode, struct fuse_file_info *fi)
{
	if ((flags & O_ACCMODE) == O_WRONLY) {
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	}
	int fd = openat(root_fd, rel(path), (flags & ~(O_APPEND | O_TRUNC | O_SYNC | O_DSYNC)) | O_CLOEXEC, mode);
	if (fd < 0) {
		return -errno;
	}
	struct stat st;
	struct handle *h = malloc(sizeof *h);
	if (!h || fstat(fd, &st) != 0) {
		int err = h ? errno : ENOMEM;
		free(h);
		close(fd);
		return -err;
	}
	h->fd = fd;
	h->ino = st.st_ino;
	if ((flags & O_TRUNC) && st.st_size > 0) {
		int res = resize(fd, 0);
		if (res != 0) {
			free(h);
			close(fd);
			return res;
		}
	}
	fi->fh = (uintptr_t)h;
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	if (!(fi->flags & O_TRUNC)) {
		return open_handle(path, fi->flags, 0, fi);
	}
	ENTER();
	int res = open_handle(path, fi->flags, 0, fi);
	leave();
	return res;
}

static int fs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	ENTER();
	pthread_mutex_lock(&ns_lock);
	struct stat st;
	int existed = fstatat(root_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW) == 0;
	int res = !existed && is_full() ? -ENOSPC : open_handle(path, fi->flags | O_CREAT, mode, fi);
	if (res == 0 && !existed) {
		res = journal_add(NS_CREATE, 0, rel(path), NULL, NULL);
	}
	pthread_mutex_unlock(&ns_lock);
	leave();
	return res;
}

static int fs_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
	(void)path;
	ssize_t n = pread(HANDLE(fi)->fd, buf, size, offset);
	return n < 0 ? -errno : (int)n;
}

static int fs_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
	(void)path;
	struct handle *h = HANDLE(fi);
	linger(&slow_write_ns);
	if (is_full() && needs_space(h->fd, offset, (off_t)size)) {
		/* all of it, even a part that fits: ext4 would write that part and fail the next call */
		return -ENOSPC;
	}
	ENTER();
	ssize_t n;
	struct fstate *s = state_acquire(h->fd, h->ino);
	if (!s) {
		n = -errno;
	} else {
		int res = save_range(s, offset, offset + (off_t)size);
		n = res != 0 ? res : pwrite(h->fd, buf, size, offset);
		if (n < 0 && res == 0) {
			n = -errno;
		}
		state_release(s);
	}
	leave();
	return (int)n;
}

/* A full disk says so: a broker that watches its free space (RabbitMQ's disk alarm) sees none. */
static int fs_statfs(const char *path, struct statvfs *st)
{
	(void)path;
	if (fstatvfs(root_fd, st) != 0) {
		return -errno;
	}
	if (is_full()) {
		st->f_bfree = 0;
		st->f_bavail = 0;
	}
	return 0;
}

static int fs_flush(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	return 0;
}

static int fs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	struct handle *h = HANDLE(fi);
	close(h->fd);
	free(h);
	return 0;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	struct handle *h = HANDLE(fi);
	linger(&slow_sync_ns);
	ENTER();
	/* the real sync keeps the cost of durability what it is on the backing disk */
	int res = (datasync ? fdatasync(h->fd) : fsync(h->fd)) == 0 ? 0 : -errno;
	if (res == 0) {
		commit(h->ino, 1);
	}
	leave();
	return res;
}

/* Whether fallocate needs new blocks: punching a hole and collapsing a range free them. */
static int allocates(int fd, int mode, off_t offset, off_t length)
{
	if (mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_COLLAPSE_RANGE)) {
		return 0;
	}
	return (mode & FALLOC_FL_INSERT_RANGE) || needs_space(fd, offset, length);
}

static int fs_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *fi)
{
	(void)path;
	struct handle *h = HANDLE(fi);
	if (is_full() && allocates(h->fd, mode, offset, length)) {
		return -ENOSPC;
	}
	ENTER();
	int res = 0;
	struct fstate *s = state_acquire(h->fd, h->ino);
	if (!s) {
		res = -errno;
	} else {
		if (mode & (FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_INSERT_RANGE)) {
			res = save_range(s, offset, s->durable); /* everything after offset moves */
		} else if (mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) {
			res = save_range(s, offset, offset + length);
		}
		if (res == 0 && fallocate(h->fd, mode, offset, length) != 0) {
			res = -errno;
		}
		state_release(s);
	}
	leave();
	return res;
}

static off_t fs_lseek(const char *path, off_t off, int whence, struct fuse_file_info *fi)
{
	(void)path;
	off_t res = lseek(HANDLE(fi)->fd, off, whence);
	return res < 0 ? -errno : res;
}

/*
 * The kernel's writeback cache makes the mount behave as a disk behind a page cache: a write(2)
 * only dirties pages, which reach us later in large requests (write-back, close, fsync) or, at a
 * power cut, never (the abort drops them). Without it every write(2) is a round trip to this
 * process: 4 KiB sequential writes ran at about half the speed without it (docs/forgetful-disk.md).
 * "write-through" does without it all the same, so that a full disk can fail write(2) itself, as
 * ext4 does (it reserves blocks at write(2)); with it, the ENOSPC only reaches the writer when its
 * pages are written back: from fsync or close, or never.
 * Requests of up to 1 MiB instead of 128 KiB: fewer round trips for large writes.
 */
static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	if (write_through) {
		conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	} else if (conn->capable & FUSE_CAP_WRITEBACK_CACHE) {
		conn->want |= FUSE_CAP_WRITEBACK_CACHE;
	}
	conn->max_write = 1 << 20;
	cfg->use_ino = 1;
	/* an unlinked open file is buried by us, not hidden as .fuse_hidden* by libfuse */
	cfg->hard_remove = 1;
	cfg->nullpath_ok = 1;
	/* nothing changes BACKING behind our back: the kernel may keep what it cached */
	cfg->kernel_cache = 1;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.access = fs_access,
	.readlink = fs_readlink,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.releasedir = fs_releasedir,
	.fsyncdir = fs_fsyncdir,
	.mknod = fs_mknod,
	.mkdir = fs_mkdir,
	.symlink = fs_symlink,
	.link = fs_link,
	.unlink = fs_unlink,
	.rmdir = fs_rmdir,
	.rename = fs_rename,
	.chmod = fs_chmod,
	.chown = fs_chown,
	.utimens = fs_utimens,
	.truncate = fs_truncate,
	.open = fs_open,
	.create = fs_create,
	.read = fs_read,
	.write = fs_write,
	.statfs = fs_statfs,
	.flush = fs_flush,
	.release = fs_release,
	.fsync = fs_fsync,
	.fallocate = fs_fallocate,
	.lseek = fs_lseek,
};

/* ------------------------------------------------------------------------------------------
 * The rollback, run once no operation can reach BACKING any more.
 */
static const char zeros[BLOCK];

static void log_failure(const char *what, const char *name)
{
	fprintf(stderr, "forgetfs: rollback: %s %s: %s\n", what, name, strerror(errno));
}

/* Namespace changes since the last sync, newest first. @return how many were undone */
static size_t undo_namespace(void)
{
	size_t undone = 0;
	for (size_t i = journal_len; i-- > 0;) {
		struct nsrec *r = &journal[i];
		int ok = 1;
		switch (r->op) {
		case NS_CREATE:
			ok = unlinkat(root_fd, r->path, r->dir ? AT_REMOVEDIR : 0) == 0;
			break;
		case NS_UNLINK:
			ok = renameat(grave_fd, r->grave, root_fd, r->path) == 0;
			break;
		case NS_RENAME:
			ok = renameat(root_fd, r->path2, root_fd, r->path) == 0;
			if (ok && r->grave) {
				ok = renameat(grave_fd, r->grave, root_fd, r->path2) == 0;
			}
			break;
		case NS_EXCHANGE:
			ok = renameat2(root_fd, r->path, root_fd, r->path2, RENAME_EXCHANGE) == 0;
			break;
		}
		if (ok) {
			undone++;
		} else {
			log_failure("cannot undo a change of", r->path);
		}
	}
	return undone;
}

struct rollback {
	size_t files;
	uint64_t restored;     /* bytes of saved blocks written back */
	uint64_t discarded;    /* bytes past the durable size cut off */
};

static void undo_file(struct fstate *s, struct rollback *r)
{
	struct stat st;
	if (fstat(s->fd, &st) == 0 && st.st_size > s->durable) {
		r->discarded += (uint64_t)(st.st_size - s->durable);
	}
	for (size_t i = 0; i < s->nbuckets; i++) {
		for (struct saved *e = s->buckets[i]; e; e = e->next) {
			if (pwrite(s->fd, e->data ? e->data : zeros, e->len, (off_t)e->block * BLOCK) != (ssize_t)e->len) {
				fprintf(stderr, "forgetfs: rollback: cannot restore block %" PRIu64 " of inode %ju: %s\n",
				        e->block, (uintmax_t)s->ino, strerror(errno));
			}
			r->restored += e->len;
		}
	}
	if (ftruncate(s->fd, s->durable) != 0) {
		fprintf(stderr, "forgetfs: rollback: cannot truncate inode %ju: %s\n", (uintmax_t)s->ino, strerror(errno));
	}
	r->files++;
}

/* ------------------------------------------------------------------------------------------
 * Control.
 */
static struct fuse *fuse;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&out_lock);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	va_end(ap);
}

static int abort_connection(void)
{
	return write(abort_fd, "1", 1) == 1 ? 0 : -1;
}

static void power_cut(void)
{
	pthread_mutex_lock(&gate_lock);
	cutting = 1;
	pthread_mutex_unlock(&gate_lock);
	if (abort_connection() != 0) {
		fprintf(stderr, "forgetfs: cannot abort the connection through %s: %s\n", abort_path, strerror(errno));
	}
	pthread_mutex_lock(&gate_lock);
	while (gate_inside > 0) {
		pthread_cond_wait(&gate_empty, &gate_lock);
	}
	pthread_mutex_unlock(&gate_lock);
	size_t undone = undo_namespace();
	struct rollback r = {0, 0, 0};
	for (size_t i = 0; i < TABLE; i++) {
		for (struct fstate *s = table[i]; s; s = s->next) {
			undo_file(s, &r);
		}
	}
	if (umount2(mountpoint, MNT_DETACH) != 0 && errno != EINVAL) {
		fprintf(stderr, "forgetfs: cannot detach %s: %s\n", mountpoint, strerror(errno));
	}
	say("cut files=%zu restored=%" PRIu64 " discarded=%" PRIu64 " undone=%zu", r.files, r.restored, r.discarded,
	    undone);
	_exit(0);
}

static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_cond = PTHREAD_COND_INITIALIZER;
static int loop_ended;

/* The owner closed our input: unmount, which ends the loop; force it if something holds on. */
static void clean_stop(void)
{
	set_sickness(0, 0, 0);
	if (umount2(mountpoint, 0) != 0 && umount2(mountpoint, MNT_DETACH) != 0) {
		fprintf(stderr, "forgetfs: cannot unmount %s: %s\n", mountpoint, strerror(errno));
	}
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 10;
	pthread_mutex_lock(&stop_lock);
	while (!loop_ended) {
		if (pthread_cond_timedwait(&stop_cond, &stop_lock, &deadline) == ETIMEDOUT) {
			fprintf(stderr, "forgetfs: still in use 10 s after a lazy unmount; aborting the connection\n");
			abort_connection();
			fuse_exit(fuse);
			break;
		}
	}
	pthread_mutex_unlock(&stop_lock);
}

/* The nanoseconds after a command's word and a space: 0 or more. -1 if that is not what follows. */
static int64_t delay_arg(const char *line, const char *word)
{
	size_t n = strlen(word);
	if (strncmp(line, word, n) != 0 || line[n] != ' ' || line[n + 1] < '0' || line[n + 1] > '9') {
		return -1;
	}
	char *end;
	errno = 0;
	long long value = strtoll(line + n + 1, &end, 10);
	return errno == 0 && *end == '\0' ? (int64_t)value : -1;
}

/* Applies a sickness command; says what the disk suffers from now, or why the command is wrong. */
static void sicken(const char *line)
{
	pthread_mutex_lock(&sick_lock);
	int64_t sync_ns = slow_sync_ns, write_ns = slow_write_ns;
	int no_space = full, holding = held;
	pthread_mutex_unlock(&sick_lock);
	int64_t delay;
	if ((delay = delay_arg(line, "slow")) >= 0) {
		sync_ns = delay;
	} else if ((delay = delay_arg(line, "slow-writes")) >= 0) {
		write_ns = delay;
	} else if (strcmp(line, "full on") == 0 || strcmp(line, "full off") == 0) {
		no_space = strcmp(line, "full on") == 0;
	} else if (strcmp(line, "sick") != 0) {
		say("error '%s': slow and slow-writes take nanoseconds (0 or more), full takes on or off", line);
		return;
	}
	set_sickness(sync_ns, write_ns, no_space);
	say("sick slow=%" PRId64 " slow-writes=%" PRId64 " full=%d held=%d", sync_ns, write_ns, no_space, holding);
}

static void *control(void *arg)
{
	(void)arg;
	char line[64];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "cut") == 0) {
			power_cut();
		} else if (strcmp(line, "status") == 0) {
			pthread_mutex_lock(&ns_lock);
			size_t pending = journal_len;
			pthread_mutex_unlock(&ns_lock);
			pthread_mutex_lock(&table_lock);
			size_t files = dirty_files;
			uint64_t saved = saved_bytes;
			pthread_mutex_unlock(&table_lock);
			say("status files=%zu saved=%" PRIu64 " pending=%zu", files, saved, pending);
		} else if (strncmp(line, "slow", 4) == 0 || strncmp(line, "full", 4) == 0 || strcmp(line, "sick") == 0) {
			sicken(line);
		} else {
			say("error unknown command '%s'", line);
		}
	}
	clean_stop();
	return NULL;
}

/* ------------------------------------------------------------------------------------------
 * Start.
 */
static int mounted;

static void fail(const char *fmt, ...)
{
	if (mounted) {
		fuse_unmount(fuse);
	}
	va_list ap;
	va_start(ap, fmt);
	printf("error ");
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
	exit(1);
}

/* Field 22 of /proc/self/stat: with the pid, it names this process and no later one. */
static unsigned long long start_ticks(void)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f) {
		fclose(f);
	}
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	/* after the ") " come fields 3 onwards; the start time is the 20th of them */
	for (int field = 3; p && field <= 22; field++) {
		p = strchr(p + 1, ' ');
	}
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/*
 * The connection number: the minor device number of our mount, found by its unique source.
 * Sets device to the mount's "MAJOR:MINOR", which names its writeback settings in /sys/class/bdi.
 */
static unsigned connection_of(const char *fsname, char *device, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	if (!f) {
		fail("cannot read /proc/self/mountinfo: %s", strerror(errno));
	}
	char line[8192];
	unsigned found = 0, major, minor;
	while (fgets(line, sizeof line, f)) {
		char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*u %*u %u:%u", &major, &minor) != 2) {
			continue;
		}
		char type[256], source[512];
		if (sscanf(sep + 3, "%255s %511s", type, source) == 2 && strcmp(source, fsname) == 0) {
			found = minor;
			snprintf(device, size, "%u:%u", major, minor);
		}
	}
	fclose(f);
	if (!found) {
		fail("mounted, but no mount named %s in /proc/self/mountinfo", fsname);
	}
	return found;
}

/*
 * Opens the abort file of the fuse control file system and keeps it open for the power cut.
 * systemd mounts that file system on most machines; where nobody has, it is mounted on a private
 * directory just long enough to open the file, then detached: the open file keeps working, and
 * the machine is left with no mount of ours, even if this daemon is killed later.
 */
static void find_abort_file(unsigned connection)
{
	snprintf(abort_path, sizeof abort_path, CONNECTIONS "/%u/abort", connection);
	abort_fd = open(abort_path, O_WRONLY | O_CLOEXEC);
	if (abort_fd >= 0) {
		return;
	}
	char private_dir[] = "/tmp/msgbench-fusectl-XXXXXX";
	if (!mkdtemp(private_dir)) {
		fail("cannot make a directory for the fuse control file system: %s", strerror(errno));
	}
	if (mount("fusectl", private_dir, "fusectl", 0, NULL) != 0) {
		int error = errno;
		rmdir(private_dir);
		fail("cannot mount the fuse control file system: %s", strerror(error));
	}
	snprintf(abort_path, sizeof abort_path, "%s/%u/abort", private_dir, connection);
	abort_fd = open(abort_path, O_WRONLY | O_CLOEXEC);
	int error = errno;
	umount2(private_dir, MNT_DETACH);
	rmdir(private_dir);
	if (abort_fd < 0) {
		fail("%s is missing: a power cut could not stop the kernel's late writes: %s", abort_path, strerror(error));
	}
}

static void write_setting(const char *device, const char *name, const char *value)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "/sys/class/bdi/%s/%s", device, name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, strlen(value)) != (ssize_t)strlen(value)) {
		fprintf(stderr, "forgetfs: cannot set %s to %s: %s\n", path, value, strerror(errno));
	}
	if (fd >= 0) {
		close(fd);
	}
}

/*
 * The kernel holds a FUSE mount to 1% of the dirty-page limit, strictly, so that a file system
 * in user space cannot hog memory; a writer past it is throttled (1 MiB sequential writes ran at
 * a third of their speed). This one is trusted and stands for a disk: give it a disk's limits.
 * strict_limit exists since Linux 6.2; max_ratio alone already lifts most of the throttling.
 */
static void unthrottle(const char *device)
{
	write_setting(device, "max_ratio", "100");
	char path[PATH_MAX];
	snprintf(path, sizeof path, "/sys/class/bdi/%s/strict_limit", device);
	if (access(path, F_OK) == 0) {
		write_setting(device, "strict_limit", "0");
	}
}

int main(int argc, char *argv[])
{
	write_through = argc == 5 && strcmp(argv[1], "write-through") == 0;
	char **paths = argv + 1 + write_through;
	if (argc - write_through != 4) {
		fprintf(stderr, "usage: forgetfs [write-through] BACKING MOUNTPOINT GRAVEYARD\n");
		return 2;
	}
	pthread_condattr_t monotonic;
	pthread_condattr_init(&monotonic);
	pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
	pthread_cond_init(&sick_changed, &monotonic);
	signal(SIGPIPE, SIG_IGN);
	/* one descriptor per open file and one per file with unsynced changes */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	root_fd = open(paths[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0) {
		fail("cannot open the backing directory %s: %s", paths[0], strerror(errno));
	}
	grave_fd = open(paths[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (grave_fd < 0) {
		fail("cannot open the graveyard %s: %s", paths[2], strerror(errno));
	}
	mountpoint = paths[1];

	char fsname[128];
	snprintf(fsname, sizeof fsname, "msgbench-forgetfs:%ld:%llu", (long)getpid(), start_ticks());
	char options[256];
	snprintf(options, sizeof options, "fsname=%s,subtype=forgetfs,allow_other,default_permissions", fsname);
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	if (fuse_opt_add_arg(&args, argv[0]) != 0 || fuse_opt_add_arg(&args, "-o") != 0
	    || fuse_opt_add_arg(&args, options) != 0) {
		fail("out of memory");
	}
	fuse = fuse_new(&args, &ops, sizeof ops, NULL);
	if (!fuse) {
		fail("fuse_new failed (see the log)");
	}
	if (fuse_mount(fuse, mountpoint) != 0) {
		fail("cannot mount on %s (see the log); is /dev/fuse there, and is this root?", mountpoint);
	}
	mounted = 1;
	struct fuse_session *se = fuse_get_session(fuse);
	if (fuse_set_signal_handlers(se) != 0) {
		fail("cannot install signal handlers");
	}
	char device[64] = "";
	unsigned connection = connection_of(fsname, device, sizeof device);
	find_abort_file(connection);
	unthrottle(device);

	/* the control thread takes no signals: SIGTERM must reach the loop's thread and end it */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_t controller;
	if (pthread_create(&controller, NULL, control, NULL) != 0) {
		fail("cannot start the control thread");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	say("ready %u", connection);

	struct fuse_loop_config *config = fuse_loop_cfg_create();
	/* enough that lookups and reads still find a thread while a slow disk holds syncs */
	fuse_loop_cfg_set_max_threads(config, MAX_THREADS);
	int res = fuse_loop_mt(fuse, config);
	fuse_loop_cfg_destroy(config);

	pthread_mutex_lock(&gate_lock);
	int cut = cutting;
	pthread_mutex_unlock(&gate_lock);
	if (cut) {
		/* the abort ended the loop: the control thread rolls back, reports and exits */
		for (;;) {
			pause();
		}
	}
	pthread_mutex_lock(&stop_lock);
	loop_ended = 1;
	pthread_cond_broadcast(&stop_cond);
	pthread_mutex_unlock(&stop_lock);
	fuse_remove_signal_handlers(se);
	fuse_unmount(fuse);
	fuse_destroy(fuse);
	fuse_opt_free_args(&args);
	say("stopped");
	return res == 0 ? 0 : 1;
}
