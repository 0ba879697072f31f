// A stand-in for the C half of Apple's Darwin module (the libc the iOS SDK declares), used only
// by `.ci/darwin-check` to type-check the library's `#if canImport(Darwin)` file calls on Linux.
// Test infrastructure, like Tests/SwiftUIStandIn: never shipped, never part of a SwiftPM target,
// never linked or run. Swift imports these declarations as it imports the SDK's, so the library
// meets Darwin's C types (`mode_t` is UInt16, `off_t` Int64, `stat.st_mtimespec`,
// `dirent.d_name` a tuple of 1,024 CChar beside `d_namlen`, `DIR` a struct, `clockid_t` an
// enum) instead of Glibc's.
//
// Sources. The iOS 18.0 SDK of Xcode 16.0 places each header at iPhoneOS18.0.sdk/usr/include/
// <header>. Few of that SDK's C headers are among the stored files of the public repository
// xybp888/iOS-SDKs (it holds a part of each SDK), so each declaration below names the copy it
// was read from, the nearest one stored:
//
//   [fcntl]   iPhoneOS16.4.sdk/usr/include/sys/fcntl.h (xybp888/iOS-SDKs, commit f4fc87b8)
//   [unistd]  iPhoneOS16.4.sdk/usr/include/unistd.h (xybp888/iOS-SDKs, commit f4fc87b8)
//   [sunistd] iPhoneOS10.3.sdk/usr/include/sys/unistd.h (xybp888/iOS-SDKs, commit 368c9fb2)
//   [stat]    bsd/sys/stat.h of apple-oss-distributions/xnu (commit 5c2921b0), the SDK's
//             usr/include/sys/stat.h (not stored from any iOS SDK)
//   [sdirent] bsd/sys/dirent.h of apple-oss-distributions/xnu (commit 8d741a5d), the SDK's
//             usr/include/sys/dirent.h
//   [dirent]  include/dirent.h of Apple-FOSS-Mirror/Libc (commit e79933b5), the SDK's
//             usr/include/dirent.h
//   [errno]   iPhoneOS18.0.sdk/usr/lib/swift/_errno.swiftmodule/arm64-apple-ios.swiftinterface
//             (xybp888/iOS-SDKs, commit 88fdca9d): its `POSIXErrorCode` gives each E* value
//
// and, for what none of those holds, the SDK header it sits in, written from Apple's libc
// without a stored copy to read (marked "not stored"). Types are spelled as the SDK
// spells them after its typedefs for arm64 (LP64; `long` is 64 bits, as on x86_64 Linux, so
// the layouts match), and only what the library calls is declared, with a few neighbours:
// fewer declarations, never looser ones. Availability attributes are left out (Linux ignores
// them; every call here is older than the package's floor, iOS 17). `open`, `openat` and
// `fcntl` are variadic in C, so Swift does not import them: the overlay (Darwin.swift)
// declares them, as the SDK's does.

#ifndef LOADABLES_DARWIN_STANDIN_H
#define LOADABLES_DARWIN_STANDIN_H

// sys/_types.h, i386/_types.h and arm/_types.h (not stored): the fixed-width types and the
// `__darwin_` types they name.
typedef signed char __int8_t;
typedef unsigned char __uint8_t;
typedef short __int16_t;
typedef unsigned short __uint16_t;
typedef int __int32_t;
typedef unsigned int __uint32_t;
typedef long long __int64_t;
typedef unsigned long long __uint64_t;
typedef long __darwin_time_t;
typedef unsigned long __darwin_size_t;
typedef long __darwin_ssize_t;
typedef __uint16_t __darwin_mode_t;
typedef __int64_t __darwin_off_t;
typedef __int32_t __darwin_pid_t;
typedef __uint32_t __darwin_uid_t;
typedef __uint32_t __darwin_gid_t;
typedef __int32_t __darwin_dev_t;
typedef __uint64_t __darwin_ino64_t;
typedef __int64_t __darwin_blkcnt_t;
typedef __int32_t __darwin_blksize_t;

// sys/_types/_*.h (not stored), each `typedef __darwin_<name> <name>;` but nlink_t
// (`typedef __uint16_t nlink_t;`).
typedef __darwin_size_t size_t;
typedef __darwin_ssize_t ssize_t;
typedef __darwin_time_t time_t;
typedef __darwin_mode_t mode_t;
typedef __darwin_off_t off_t;
typedef __darwin_pid_t pid_t;
typedef __darwin_uid_t uid_t;
typedef __darwin_gid_t gid_t;
typedef __darwin_dev_t dev_t;
typedef __uint16_t nlink_t;
typedef __darwin_blkcnt_t blkcnt_t;
typedef __darwin_blksize_t blksize_t;

// sys/_types/_timespec.h (not stored).
struct timespec {
  __darwin_time_t tv_sec;
  long tv_nsec;
};

// [errno] sys/errno.h: `errno` is a macro over `__error()`, which Swift cannot import; the
// SDK's _errno overlay declares `public var errno: Swift.Int32 { get set }` (Darwin.swift).
extern int *__error(void);
#define errno (*__error())
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EACCES 13
#define EEXIST 17
#define ENOTDIR 20
#define EROFS 30

// [fcntl] sys/fcntl.h: the open flags, the at-functions' flags, flock(2) and its operations
// (beside `struct flock`, fcntl(2)'s record lock, which shares its name as in Glibc).
#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_NOFOLLOW 0x00000100
#define O_CREAT 0x00000200
#define O_TRUNC 0x00000400
#define O_EXCL 0x00000800
#define O_DIRECTORY 0x00100000
#define O_CLOEXEC 0x01000000
#define AT_FDCWD -2
#define AT_SYMLINK_NOFOLLOW 0x0020
#define AT_REMOVEDIR 0x0080
#define LOCK_SH 0x01
#define LOCK_EX 0x02
#define LOCK_NB 0x04
#define LOCK_UN 0x08
struct flock {
  off_t l_start;
  off_t l_len;
  pid_t l_pid;
  short l_type;
  short l_whence;
};
int open(const char *, int, ...);
int openat(int, const char *, int, ...);
int fcntl(int, int, ...);
int flock(int, int);

// [unistd] unistd.h.
int access(const char *, int);
int close(int);
pid_t getpid(void);
ssize_t read(int, void *, size_t);
int rmdir(const char *);
int unlink(const char *);
ssize_t write(int __fd, const void *__buf, size_t __nbyte);
ssize_t pread(int __fd, void *__buf, size_t __nbyte, off_t __offset);
ssize_t pwrite(int __fd, const void *__buf, size_t __nbyte, off_t __offset);
int fsync(int);
int ftruncate(int, off_t);

// [sunistd] sys/unistd.h: access(2)'s modes and the at-function it declares.
#define F_OK 0
#define X_OK (1 << 0)
#define W_OK (1 << 1)
#define R_OK (1 << 2)
int unlinkat(int, const char *, int);

// [stat] sys/stat.h: `struct stat` as __DARWIN_STRUCT_STAT64 (64-bit inodes, always on
// arm64), its times as `struct timespec st_<x>timespec` (no `_POSIX_C_SOURCE`); the st_mtime
// family are macros over them (`#define st_mtime st_mtimespec.tv_sec`).
struct stat {
  dev_t st_dev;
  mode_t st_mode;
  nlink_t st_nlink;
  __darwin_ino64_t st_ino;
  uid_t st_uid;
  gid_t st_gid;
  dev_t st_rdev;
  struct timespec st_atimespec;
  struct timespec st_mtimespec;
  struct timespec st_ctimespec;
  struct timespec st_birthtimespec;
  off_t st_size;
  blkcnt_t st_blocks;
  blksize_t st_blksize;
  __uint32_t st_flags;
  __uint32_t st_gen;
  __int32_t st_lspare;
  __int64_t st_qspare[2];
};
#define st_atime st_atimespec.tv_sec
#define st_mtime st_mtimespec.tv_sec
#define st_ctime st_ctimespec.tv_sec
// sys/_types/_s_ifmt.h (not stored), included by [stat]: plain octal literals, which Swift
// would import as Int32; the overlay's `mode_t` properties shadow them (Darwin.swift).
#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
int fstat(int, struct stat *);
int mkdir(const char *, mode_t);
int stat(const char *, struct stat *);
int fstatat(int, const char *, struct stat *, int);
int futimens(int __fd, const struct timespec __times[2]);
int utimensat(int __fd, const char *__path, const struct timespec __times[2], int __flag);

// [sdirent] sys/dirent.h: `struct dirent` as __DARWIN_STRUCT_DIRENTRY (64-bit inodes), its
// name `char d_name[__DARWIN_MAXPATHLEN]` (1,024 bytes; 256 on Linux).
#define __DARWIN_MAXPATHLEN 1024
struct dirent {
  __uint64_t d_ino;
  __uint64_t d_seekoff;
  __uint16_t d_reclen;
  __uint16_t d_namlen;
  __uint8_t d_type;
  char d_name[__DARWIN_MAXPATHLEN];
};

// [dirent] dirent.h: `DIR` is a complete struct (Swift's `UnsafeMutablePointer<DIR>`; Glibc's
// is incomplete, an `OpaquePointer`). Its fields are the library's business never; its lock is
// sys/_pthread/_pthread_types.h's `struct _opaque_pthread_mutex_t { long __sig; char
// __opaque[__PTHREAD_MUTEX_SIZE__]; }` (56 bytes on LP64; not stored).
struct _opaque_pthread_mutex_t {
  long __sig;
  char __opaque[56];
};
typedef struct _opaque_pthread_mutex_t __darwin_pthread_mutex_t;
struct _telldir;
typedef struct _dirdesc {
  int dd_fd;
  long dd_loc;
  long dd_size;
  char *dd_buf;
  int dd_len;
  long dd_seek;
  long dd_rewind;
  int dd_flags;
  __darwin_pthread_mutex_t dd_lock;
  struct _telldir *dd_td;
} DIR;
int closedir(DIR *);
DIR *opendir(const char *);
struct dirent *readdir(DIR *);
void rewinddir(DIR *);
// Not in [dirent] (an older Libc); the SDK's dirent.h declares, since iOS 8:
// `DIR *fdopendir(int) __DARWIN_ALIAS_I(fdopendir) __OSX_AVAILABLE_STARTING(__MAC_10_10,
// __IPHONE_8_0);`
DIR *fdopendir(int);

// time.h (not stored): `clockid_t` is an enum, so Swift imports it as a struct (Glibc's is an
// Int32), and `clock_gettime` takes a value of it. The header names the clocks with macros over
// the enumerators (`_CLOCK_REALTIME = 0,` then `#define CLOCK_REALTIME _CLOCK_REALTIME`), which
// Swift code on Apple platforms calls by the macro's name (Apple's swift-collections-benchmark,
// Sources/CollectionsBenchmark/Basics/Tick.swift: `clock_gettime(CLOCK_MONOTONIC_RAW, &now)`
// under `#if os(macOS) || os(iOS) ...`). This machine's compiler imports no macro that names
// another declaration, so the stand-in declares each as the constant of that type that Swift
// sees instead of the macro.
typedef enum {
  _CLOCK_REALTIME = 0,
  _CLOCK_MONOTONIC = 6,
  _CLOCK_MONOTONIC_RAW = 4,
  _CLOCK_MONOTONIC_RAW_APPROX = 5,
  _CLOCK_UPTIME_RAW = 8,
  _CLOCK_UPTIME_RAW_APPROX = 9,
  _CLOCK_PROCESS_CPUTIME_ID = 12,
  _CLOCK_THREAD_CPUTIME_ID = 16
} clockid_t;
static const clockid_t CLOCK_REALTIME = _CLOCK_REALTIME;
static const clockid_t CLOCK_MONOTONIC = _CLOCK_MONOTONIC;
static const clockid_t CLOCK_MONOTONIC_RAW = _CLOCK_MONOTONIC_RAW;
static const clockid_t CLOCK_UPTIME_RAW = _CLOCK_UPTIME_RAW;
int clock_gettime(clockid_t __clock_id, struct timespec *__tp);

// string.h and stdio.h (not stored).
int memcmp(const void *__s1, const void *__s2, size_t __n);
int strcmp(const char *__s1, const char *__s2);
int strncmp(const char *__s1, const char *__s2, size_t __n);
size_t strlen(const char *__s);
int rename(const char *__old, const char *__new);

#endif
