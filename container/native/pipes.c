/*
 * The two pipes to computerd, and the parsing their commands need. Output is buffered and written without blocking: computerd
 * may be stuck in a syscall on the workspace waiting for this very process to answer a
 * pre-content event, so a full stdout pipe must never stop the poll loop. Input is read
 * in whatever pieces arrive and handed on line by line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "native.h"

static char *out_buf;
static size_t out_start, out_end, out_cap;

static void out_reserve(size_t more) {
  if (out_end + more <= out_cap) return;
  if (out_start > 0) {
    memmove(out_buf, out_buf + out_start, out_end - out_start);
    out_end -= out_start;
    out_start = 0;
    if (out_end + more <= out_cap) return;
  }
  size_t cap = out_cap ? out_cap : 65536;
  while (cap < out_end + more) cap *= 2;
  char *grown = realloc(out_buf, cap);
  if (!grown) {
    warnx_("out of memory for %zu bytes of output", cap);
    exit(70);
  }
  out_buf = grown;
  out_cap = cap;
}

static void out_bytes(const char *bytes, size_t len) {
  out_reserve(len);
  memcpy(out_buf + out_end, bytes, len);
  out_end += len;
}

void out_text(const char *text) { out_bytes(text, strlen(text)); }

void out_uint(uint64_t value) {
  char digits[24];
  int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
  out_bytes(digits, (size_t)len);
}

/*
 * A JSON string holding arbitrary bytes: every byte at or above 0x80 is written as
 * \u00XX, so the string's code units are exactly the bytes (Node reads them back with
 * Buffer.from(s, "latin1")). Paths need not be UTF-8, and this keeps them exact.
 */
void out_json_bytes(const unsigned char *bytes, size_t len) {
  static const char hex[] = "0123456789abcdef";
  out_reserve(len * 6 + 2);
  char *w = out_buf + out_end;
  *w++ = '"';
  for (size_t i = 0; i < len; i++) {
    unsigned char c = bytes[i];
    if (c == '"' || c == '\\') {
      *w++ = '\\';
      *w++ = (char)c;
    } else if (c < 0x20 || c >= 0x80) {
      memcpy(w, "\\u00", 4);
      w[4] = hex[c >> 4];
      w[5] = hex[c & 15];
      w += 6;
    } else {
      *w++ = (char)c;
    }
  }
  *w++ = '"';
  out_end = (size_t)(w - out_buf);
}

size_t out_pending(void) { return out_end - out_start; }

/* Writes what stdout takes now; -1 when computerd has gone (EPIPE) or stdout failed. */
int out_flush(void) {
  while (out_start < out_end) {
    ssize_t n = write(STDOUT_FILENO, out_buf + out_start, out_end - out_start);
    if (n > 0) {
      out_start += (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return 0;
    return -1;
  }
  out_start = out_end = 0;
  return 0;
}

static char in_buf[INPUT_LINE_BYTES_MAX * 2];
static size_t in_len;

int in_read(void (*on_line)(char *line)) {
  return lines_read(STDIN_FILENO, in_buf, sizeof in_buf, &in_len, on_line);
}

int lines_read(int fd, char *buf, size_t cap, size_t *len, void (*on_line)(char *line)) {
  ssize_t n = read(fd, buf + *len, cap - *len - 1);
  if (n == 0) return 0;
  if (n < 0) return errno == EAGAIN || errno == EINTR ? 1 : -1;
  *len += (size_t)n;
  size_t start = 0;
  for (;;) {
    char *nl = memchr(buf + start, '\n', *len - start);
    if (!nl) break;
    *nl = '\0';
    on_line(buf + start);
    start = (size_t)(nl - buf) + 1;
  }
  memmove(buf, buf + start, *len - start);
  *len -= start;
  if (*len >= cap / 2) {
    warnx_("input line longer than %zu bytes", cap / 2);
    return -1;
  }
  return 1;
}

bool parse_uint(const char *s, uint64_t *value) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (!*s || *s == '-' || errno || *end) return false;
  *value = v;
  return true;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* Lowercase hex to bytes, NUL-terminated for convenience; NULL when malformed or out of memory. */
unsigned char *hex_decode(const char *hex, size_t *len) {
  size_t n = strlen(hex);
  if (n % 2) return NULL;
  unsigned char *bytes = malloc(n / 2 + 1);
  if (!bytes) return NULL;
  for (size_t i = 0; i < n / 2; i++) {
    int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(bytes);
      return NULL;
    }
    bytes[i] = (unsigned char)(hi << 4 | lo);
  }
  bytes[n / 2] = '\0';
  *len = n / 2;
  return bytes;
}

/*
 * `place`'s words (README.md): bytes 0x21-0x7d but '%' stand for themselves, any other byte
 * is %XX. Most paths and keys are plain ASCII, so a placement's line is about half as long
 * as in hex, which a walk of 36,000 placements writes through the pipe.
 */
unsigned char *pct_decode(const char *text, size_t *len) {
  size_t n = strlen(text);
  unsigned char *bytes = malloc(n + 1);
  if (!bytes) return NULL;
  size_t out = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '%') {
      /* The text ends in NUL, which is no hex digit: neither read goes past it. */
      int hi = hex_value(text[i + 1]), lo = hi < 0 ? -1 : hex_value(text[i + 2]);
      if (hi < 0 || lo < 0) {
        free(bytes);
        return NULL;
      }
      bytes[out++] = (unsigned char)(hi << 4 | lo);
      i += 2;
    } else if (c < 0x21 || c > 0x7d) {
      free(bytes);
      return NULL;
    } else {
      bytes[out++] = c;
    }
  }
  bytes[out] = '\0';
  *len = out;
  return bytes;
}

void warnx_(const char *fmt, ...) {
  char line[1024];
  va_list args;
  va_start(args, fmt);
  int len = vsnprintf(line, sizeof line - 1, fmt, args);
  va_end(args);
  if (len < 0) return;
  if ((size_t)len > sizeof line - 2) len = (int)sizeof line - 2;
  line[len++] = '\n';
  /* stderr is a diagnostic channel: a short or failed write loses a line, nothing more. */
  ssize_t ignored = write(STDERR_FILENO, "cubicle-fanotify: ", 18);
  ignored = write(STDERR_FILENO, line, (size_t)len);
  (void)ignored;
}
