/* Two RDRAND draws and one of each width: under pathvm they come from the
 * run's seed (the same on every run, different with another --seed). */
#include <stdio.h>
#include <stdint.h>

int main(void) {
    uint64_t a, b;
    uint32_t c;
    uint16_t w;
    unsigned char ok1, ok2, ok3, ok4;
    __asm__ volatile("rdrand %0; setc %1" : "=r"(a), "=qm"(ok1) : : "cc");
    __asm__ volatile("rdrand %0; setc %1" : "=r"(b), "=qm"(ok2) : : "cc");
    __asm__ volatile("rdrand %0; setc %1" : "=r"(c), "=qm"(ok3) : : "cc");
    __asm__ volatile("rdrand %0; setc %1" : "=r"(w), "=qm"(ok4) : : "cc");
    printf("rdrand %016lx %016lx %08x %04x cf %d%d%d%d differ %d\n", a, b, c, w, ok1, ok2,
           ok3, ok4, a != b);
    return 0;
}
