/* SPDX-License-Identifier: MIT */
/* adapters/libc/test/sys.c - the system layer the libc test images run on:
 * console output through stow_port_write() (port/cortex-m/semihost.c, so that
 * stdio and the test harness share one ordered channel), and host files through
 * ARM semihosting (QEMU -semihosting-config enable=on,target=native), so that
 * fopen() and its buffers can be exercised. For test images only: semihosting
 * locks up a chip that has no debugger attached.
 *
 *   newlib    _write _read _open _close _lseek _fstat _isatty _exit _kill
 *             _getpid: what its stdio and exit paths call; no _sbrk (the
 *             allocator is stow's, and the image must not reference one).
 *   picolibc  stdin, stdout and stderr (one write-only console stream, line
 *             buffered here), open close read write lseek _exit.
 *
 * File descriptors: 0-2 are the console; a host file gets its semihosting
 * handle + 3, whatever handle numbers QEMU uses.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stow/port.h"

#if defined(__PICOLIBC__)
#define SYS_NEWLIB 0
#else
#define SYS_NEWLIB 1
#endif

#define SEMI_OPEN 0x01u
#define SEMI_CLOSE 0x02u
#define SEMI_WRITE 0x05u
#define SEMI_READ 0x06u
#define SEMI_SEEK 0x0Au
#define SEMI_FLEN 0x0Cu

#define CONSOLE_FDS 3

static int32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return (int32_t)r0;
}

/* The fopen() mode index SYS_OPEN takes ("rb" 1, "r+b" 3, "wb" 5, "w+b" 7,
 * "ab" 9, "a+b" 11) for open()'s flags. */
static uint32_t semihost_mode(int flags)
{
    switch (flags & O_ACCMODE) {
    case O_RDONLY:
        return 1u;
    case O_WRONLY:
        return (flags & O_APPEND) != 0 ? 9u : 5u;
    default:
        if ((flags & O_APPEND) != 0) {
            return 11u;
        }
        return (flags & O_TRUNC) != 0 ? 7u : 3u;
    }
}

static int file_open(const char *path, int flags)
{
    uint32_t args[3];
    int32_t handle;
    args[0] = (uint32_t)(uintptr_t)path;
    args[1] = semihost_mode(flags);
    args[2] = (uint32_t)strlen(path);
    handle = semihost(SEMI_OPEN, args);
    if (handle < 0) {
        errno = ENOENT;
        return -1;
    }
    return (int)handle + CONSOLE_FDS;
}

static int file_close(int fd)
{
    uint32_t handle;
    if (fd < CONSOLE_FDS) {
        return 0;
    }
    handle = (uint32_t)(fd - CONSOLE_FDS);
    if (semihost(SEMI_CLOSE, &handle) != 0) {
        errno = EBADF;
        return -1;
    }
    return 0;
}

static int file_write(int fd, const void *buf, size_t len)
{
    uint32_t args[3];
    int32_t left;
    if (fd < CONSOLE_FDS) {
        stow_port_write((const char *)buf, len);
        return (int)len;
    }
    args[0] = (uint32_t)(fd - CONSOLE_FDS);
    args[1] = (uint32_t)(uintptr_t)buf;
    args[2] = (uint32_t)len;
    left = semihost(SEMI_WRITE, args); /* bytes NOT written */
    if (left < 0 || (uint32_t)left > len) {
        errno = EIO;
        return -1;
    }
    return (int)(len - (uint32_t)left);
}

static int file_read(int fd, void *buf, size_t len)
{
    uint32_t args[3];
    int32_t left;
    if (fd < CONSOLE_FDS) {
        return 0; /* no console input: end of file */
    }
    args[0] = (uint32_t)(fd - CONSOLE_FDS);
    args[1] = (uint32_t)(uintptr_t)buf;
    args[2] = (uint32_t)len;
    left = semihost(SEMI_READ, args); /* bytes NOT read */
    if (left < 0 || (uint32_t)left > len) {
        errno = EIO;
        return -1;
    }
    return (int)(len - (uint32_t)left);
}

/* SEEK_SET and SEEK_END (all that SYS_SEEK and SYS_FLEN allow); SEEK_CUR only
 * with offset 0 at the start, which is what the tests' streams ask. */
static long file_seek(int fd, long offset, int whence)
{
    uint32_t args[2];
    int32_t base = 0;
    if (fd < CONSOLE_FDS) {
        errno = ESPIPE;
        return -1;
    }
    args[0] = (uint32_t)(fd - CONSOLE_FDS);
    if (whence == SEEK_END) {
        base = semihost(SEMI_FLEN, args);
        if (base < 0) {
            errno = EIO;
            return -1;
        }
    } else if (whence == SEEK_CUR) {
        if (offset == 0) {
            return 0;
        }
        errno = EINVAL;
        return -1;
    }
    args[1] = (uint32_t)(base + offset);
    if (semihost(SEMI_SEEK, args) != 0) {
        errno = EIO;
        return -1;
    }
    return (long)args[1];
}

#if SYS_NEWLIB

/* As newlib declares them for its own build (sys/unistd.h, _COMPILING_NEWLIB). */
int _open(const char *path, int flags, ...);
int _close(int fd);
_READ_WRITE_RETURN_TYPE _write(int fd, const void *buf, size_t len);
_READ_WRITE_RETURN_TYPE _read(int fd, void *buf, size_t len);
_off_t _lseek(int fd, _off_t offset, int whence);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _kill(int pid, int sig);
int _getpid(void);

int _open(const char *path, int flags, ...) { return file_open(path, flags); }
int _close(int fd) { return file_close(fd); }
_READ_WRITE_RETURN_TYPE _write(int fd, const void *buf, size_t len) { return file_write(fd, buf, len); }
_READ_WRITE_RETURN_TYPE _read(int fd, void *buf, size_t len) { return file_read(fd, buf, len); }
_off_t _lseek(int fd, _off_t offset, int whence) { return (_off_t)file_seek(fd, (long)offset, whence); }

int _fstat(int fd, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_mode = fd < CONSOLE_FDS ? S_IFCHR : S_IFREG;
    return 0;
}

int _isatty(int fd) { return fd < CONSOLE_FDS ? 1 : 0; }

void _exit(int status)
{
    stow_port_exit(status);
    for (;;) {
    }
}

int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}

int _getpid(void) { return 1; }

#else /* picolibc */

/* The console stream: characters gather in a line and go out at '\n', when the
 * line is full, and on fflush(). */
static char line[96];
static size_t line_len;

static int console_flush(FILE *f)
{
    (void)f;
    stow_port_write(line, line_len);
    line_len = 0u;
    return 0;
}

static int console_put(char c, FILE *f)
{
    line[line_len++] = c;
    if (c == '\n' || line_len == sizeof line) {
        (void)console_flush(f);
    }
    return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, console_flush, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

int open(const char *path, int flags, ...) { return file_open(path, flags); }
int close(int fd) { return file_close(fd); }
ssize_t write(int fd, const void *buf, size_t len) { return file_write(fd, buf, len); }
ssize_t read(int fd, void *buf, size_t len) { return file_read(fd, buf, len); }
off_t lseek(int fd, off_t offset, int whence) { return (off_t)file_seek(fd, (long)offset, whence); }

void _exit(int status)
{
    (void)fflush(stdout);
    stow_port_exit(status);
    for (;;) {
    }
}

#endif
