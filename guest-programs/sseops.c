/* SSE instructions real programs notice, printed for comparison with a
 * native run (tests/cpu.rs): glibc's string search on needles that cross
 * 16-byte blocks, PCMPxSTRx in every mode (all 128 immediates, implicit
 * and explicit lengths, -2^31 and -2^63 included), horizontal additions
 * with one register as both operands, and legacy CMPPS predicates with
 * bits 7:3 set. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* stub i of each table: xmm0 = *rdi, xmm1 = *rsi, then the instruction with
 * immediate i; out (rdx) gets ECX (or XMM0 for the mask forms) and RFLAGS.
 * The explicit forms take EAX from rcx and EDX from r8. */
#define STUBS(name, body)                                                      \
    __asm__(".text\n.balign 64\n.globl " #name "\n" #name ":\n"                \
            ".set i, 0\n.rept 128\n.balign 64\n" body "\n.set i, i + 1\n"      \
            ".endr\n");
STUBS(istri_tab, "movdqu (%rdi), %xmm0\n movdqu (%rsi), %xmm1\n"
                 " pcmpistri $i, %xmm1, %xmm0\n pushfq\n pop %rax\n"
                 " mov %ecx, (%rdx)\n mov %rax, 16(%rdx)\n ret")
STUBS(istrm_tab, "movdqu (%rdi), %xmm0\n movdqu (%rsi), %xmm1\n"
                 " pcmpistrm $i, %xmm1, %xmm0\n pushfq\n pop %rax\n"
                 " movdqu %xmm0, (%rdx)\n mov %rax, 16(%rdx)\n ret")
STUBS(estri_tab, "mov %rdx, %r9\n mov %rcx, %rax\n mov %r8, %rdx\n"
                 " movdqu (%rdi), %xmm0\n movdqu (%rsi), %xmm1\n"
                 " pcmpestri $i, %xmm1, %xmm0\n pushfq\n pop %rax\n"
                 " mov %ecx, (%r9)\n mov %rax, 16(%r9)\n ret")
STUBS(estrm_tab, "mov %rdx, %r9\n mov %rcx, %rax\n mov %r8, %rdx\n"
                 " movdqu (%rdi), %xmm0\n movdqu (%rsi), %xmm1\n"
                 " pcmpestrm $i, %xmm1, %xmm0\n pushfq\n pop %rax\n"
                 " movdqu %xmm0, (%r9)\n mov %rax, 16(%r9)\n ret")
/* REX.W forms: RAX and RDX whole. */
STUBS(estri64_tab, "mov %rdx, %r9\n mov %rcx, %rax\n mov %r8, %rdx\n"
                   " movdqu (%rdi), %xmm0\n movdqu (%rsi), %xmm1\n"
                   " .byte 0x66, 0x48, 0x0f, 0x3a, 0x61, 0xc1, i\n"
                   " pushfq\n pop %rax\n"
                   " mov %ecx, (%r9)\n mov %rax, 16(%r9)\n ret")
STUBS(estrm64_tab, "mov %rdx, %r9\n mov %rcx, %rax\n mov %r8, %rdx\n"
                   " movdqu (%rdi), %xmm0\n movdqu (%rsi), %xmm1\n"
                   " .byte 0x66, 0x48, 0x0f, 0x3a, 0x60, 0xc1, i\n"
                   " pushfq\n pop %rax\n"
                   " movdqu %xmm0, (%r9)\n mov %rax, 16(%r9)\n ret")
extern char istri_tab[], istrm_tab[], estri_tab[], estrm_tab[], estri64_tab[],
    estrm64_tab[];

typedef void (*stub_fn)(const void *, const void *, void *, int64_t, int64_t);

static uint64_t hash = 14695981039346656037ull;
static void mix(const void *p, size_t n) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        hash = (hash ^ c[i]) * 1099511628211ull;
}

static uint32_t seed = 24;
static uint32_t rnd(void) {
    seed = seed * 1103515245 + 12345;
    return seed >> 8;
}

static unsigned char vecs[48][16];

static void fill_vectors(void) {
    static const char *alphabets[] = {"ab", "abc\0", "a\0", "\x80\x7f\x01\xff",
                                      "abcdefghijklmnop"};
    for (int v = 0; v < 48; v++) {
        const char *a = alphabets[v % 5];
        size_t n = v % 5 == 1 ? 4 : v % 5 == 2 ? 2 : strlen(a);
        for (int b = 0; b < 16; b++)
            vecs[v][b] = a[rnd() % n];
        if (v % 7 == 3)
            vecs[v][rnd() % 16] = 0;
    }
}

static const int64_t lengths[] = {0,  1,  2,   3,   7,   8,   9,   15,
                                  16, 17, 100, -1,  -3,  -8,  -15, -16,
                                  -17, INT32_MIN, INT32_MAX, INT64_MIN,
                                  (int64_t)0xffffffff80000000ull,
                                  (int64_t)0x123456780000000full};

static void pcmpstr(const char *name, char *tab, int explicit_len) {
    for (int imm = 0; imm < 128; imm++) {
        stub_fn f = (stub_fn)(tab + 64 * imm);
        hash = 14695981039346656037ull;
        for (int a = 0; a < 48; a++) {
            for (int b = 0; b < 48; b += 3) {
                int nl = explicit_len ? sizeof lengths / sizeof *lengths : 1;
                for (int l = 0; l < nl; l++) {
                    uint64_t out[3] = {0, 0, 0};
                    int64_t la = lengths[l];
                    int64_t lb = lengths[(l * 7 + a + b) % nl];
                    f(vecs[a], vecs[b], out, la, lb);
                    out[2] &= 0x8d5;
                    mix(out, sizeof out);
                }
            }
        }
        printf("%s %02x %016llx\n", name, imm, (unsigned long long)hash);
    }
}

static void string_search(void) {
    /* Haystacks of a small alphabet at every alignment; needles cut from
     * them at every offset and length, so many cross a 16-byte block. */
    static char buf[160] __attribute__((aligned(64)));
    unsigned long found = 0;
    hash = 14695981039346656037ull;
    for (int round = 0; round < 40; round++) {
        int len = 20 + rnd() % 120;
        for (int i = 0; i < len; i++)
            buf[i] = "aab"[rnd() % 3];
        buf[len] = 0;
        for (int start = 0; start < len; start += 1 + round % 3) {
            for (int n = 1; n <= 24 && start + n <= len; n++) {
                char needle[32];
                memcpy(needle, buf + start, n);
                needle[n] = 'b' + (n == 24);
                needle[n + 1] = 0;
                for (int k = 0; k < 2; k++) {
                    /* k = 0: the needle as cut; 1: one byte longer, often
                     * absent */
                    if (k == 0)
                        needle[n] = 0;
                    else
                        needle[n] = 'b';
                    char *s = strstr(buf, needle);
                    void *m = memmem(buf, len, needle, n + k);
                    char *c = strcasestr(buf, needle);
                    long r[3] = {s ? s - buf : -1, m ? (char *)m - buf : -1,
                                 c ? c - buf : -1};
                    found += s != 0;
                    mix(r, sizeof r);
                }
            }
        }
        size_t spans[3] = {strspn(buf + round % 16, "a"),
                           strcspn(buf + round % 16, "b"),
                           strpbrk(buf + round % 16, "b")
                               ? (size_t)(strpbrk(buf + round % 16, "b") - buf)
                               : 0};
        mix(spans, sizeof spans);
    }
    printf("strstr memmem strcasestr strspn strcspn strpbrk: found %lu hash "
           "%016llx\n",
           found, (unsigned long long)hash);
    /* The case of issue 24: a needle cut off at the end of a block. */
    static const char text[] = "0123456789abcdefghXabcdefghij";
    printf("strstr(\"...efghXab...\", \"efghXa\") at %ld\n",
           strstr(text, "efghXa") - text);
}

static void horizontal(void) {
    uint64_t v[2] = {0x7fff800180007fffull, 0x0001fffe8000ffffull};
    uint64_t r[6][2];
    __asm__("movdqu %6, %%xmm0\n phaddw %%xmm0, %%xmm0\n movdqu %%xmm0, %0\n"
            "movdqu %6, %%xmm0\n phaddd %%xmm0, %%xmm0\n movdqu %%xmm0, %1\n"
            "movdqu %6, %%xmm0\n phaddsw %%xmm0, %%xmm0\n movdqu %%xmm0, %2\n"
            "movdqu %6, %%xmm0\n phsubw %%xmm0, %%xmm0\n movdqu %%xmm0, %3\n"
            "movdqu %6, %%xmm0\n phsubd %%xmm0, %%xmm0\n movdqu %%xmm0, %4\n"
            "movdqu %6, %%xmm0\n phsubsw %%xmm0, %%xmm0\n movdqu %%xmm0, %5\n"
            : "=m"(r[0]), "=m"(r[1]), "=m"(r[2]), "=m"(r[3]), "=m"(r[4]),
              "=m"(r[5])
            : "m"(v)
            : "xmm0");
    static const char *names[] = {"phaddw", "phaddd", "phaddsw",
                                  "phsubw", "phsubd", "phsubsw"};
    for (int i = 0; i < 6; i++)
        printf("%s x,x: %016llx %016llx\n", names[i],
               (unsigned long long)r[i][1], (unsigned long long)r[i][0]);
}

static void compares(void) {
    /* Legacy CMPPS/CMPSD use the predicate's bits 2:0. */
    float a[4] = {1, 2, 3, 4}, b[4] = {2, 2, 2, 2};
    uint32_t r[2][4];
    __asm__("movups %2, %%xmm0\n movups %3, %%xmm1\n cmpps $0xf9, %%xmm1, %%xmm0\n"
            "movups %%xmm0, %0\n movups %2, %%xmm0\n"
            ".byte 0x0f, 0xc2, 0xc1, 0x0a\n" /* cmpps $0x0a, %xmm1, %xmm0 */
            "movups %%xmm0, %1\n"
            : "=m"(r[0]), "=m"(r[1])
            : "m"(a), "m"(b)
            : "xmm0", "xmm1");
    for (int i = 0; i < 2; i++)
        printf("cmpps %s: %08x %08x %08x %08x\n", i ? "0x0a" : "0xf9", r[i][0],
               r[i][1], r[i][2], r[i][3]);
}

int main(void) {
    fill_vectors();
    string_search();
    horizontal();
    compares();
    pcmpstr("pcmpistri", istri_tab, 0);
    pcmpstr("pcmpistrm", istrm_tab, 0);
    pcmpstr("pcmpestri", estri_tab, 1);
    pcmpstr("pcmpestrm", estrm_tab, 1);
    pcmpstr("pcmpestri64", estri64_tab, 1);
    pcmpstr("pcmpestrm64", estrm64_tab, 1);
    return 0;
}
