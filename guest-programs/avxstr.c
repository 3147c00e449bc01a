/* String-heavy work on glibc's string and memory functions (which glibc
 * runs in their AVX2 variants on a CPU with AVX2): lengths, searches,
 * comparisons, copies and fills at every alignment, their results summed
 * and printed. Built by build.sh as avxstr-v3 (see there). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static char buf[1 << 16];
static wchar_t wbuf[4096];

int main(void)
{
    unsigned x = 12345;
    for (int i = 0; i < (int)sizeof buf - 1; i++) {
        x = x * 1103515245 + 12345;
        buf[i] = 'a' + (x >> 16) % 26;
    }
    buf[sizeof buf - 1] = 0;
    for (int i = 0; i < 4095; i++)
        wbuf[i] = L'a' + i % 23;
    wbuf[4095] = 0;
    unsigned long acc = 0;
    char tmp[512], tmp2[512];
    for (int off = 0; off < 300; off++) {
        char *p = buf + off * 37;
        acc += strlen(p);
        char *q = memchr(p, 'z', 5000 + off);
        acc += q ? (unsigned long)(q - p) : 7;
        q = strchr(p, 'q');
        acc += q ? (unsigned long)(q - p) : 11;
        q = strrchr(p + (off * 131) % 60000 > p ? p : p, 'k');
        acc += q ? (unsigned long)(q - p) & 0xffff : 13;
        acc += (unsigned)(strcmp(p, p + 1) > 0) + (unsigned)(memcmp(p, p + 3, 100 + off) < 0);
        acc += strncmp(p, buf + off * 37 + 1, off) != 0;
        acc += memcmp(p, p, 64 + off) == 0;
        memcpy(tmp, p, 299);
        tmp[299] = 0;
        acc += strlen(tmp);
        memmove(tmp + off % 17, tmp, 200);
        acc += (unsigned char)tmp[150];
        memset(tmp, 'x', 100 + off % 50);
        acc += strspn(tmp, "x");
        acc += strnlen(p, 1000 + off);
        q = strstr(p, "abc");
        acc += q ? (unsigned long)(q - p) : 17;
        q = memrchr(p, 'e', 3000);
        acc += q ? (unsigned long)(q - p) : 19;
        acc += strcasecmp(p, p) == 0;
        q = rawmemchr(p, 'y');
        acc += (unsigned long)(q - p);
        char *r = strdup(p + 1000 + off);
        acc += strlen(r);
        free(r);
        strcpy(tmp2 + off % 32, tmp + 90);
        acc += strlen(tmp2 + off % 32);
        acc += stpcpy(tmp2, "pathvm") - tmp2;
        acc += wcslen(wbuf + off % 4000);
        wmemset(wbuf + 4000, L'q', 50 + off % 40);
        acc += wmemchr(wbuf, L'q', 4095) - wbuf;
        wbuf[4000] = L'a';
    }
    printf("%lu\n", acc);
    return 0;
}
