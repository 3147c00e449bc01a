/* CPU faults as Linux delivers them. `faults all` runs every case of the
 * CPU list below with SA_SIGINFO handlers (on an alternate stack) and prints,
 * for each, what the handler sees: signal, si_code, si_addr and the saved RIP
 * (relative to the faulting instruction when near it), the saved RSP
 * relative to the RSP the case started with, trapno and the error code, and
 * the handler's own MXCSR and x87 control word. `faults prot` runs the
 * page-protection cases. `faults NAME` runs one case; `faults NAME die`
 * runs it without a handler (the process dies of the signal). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

long saved_rsp;
static sigjmp_buf env;
static const char *cur_at;
static const char *cur_arg;

/* A case: `name` starts by saving RSP, then the instructions at `name_at`. */
#define CASE(name, body)                                                       \
    extern char name[], name##_at[];                                           \
    __asm__(".text\n.globl " #name "\n" #name ":\n"                            \
            " mov %rsp, saved_rsp(%rip)\n.globl " #name "_at\n" #name          \
            "_at:\n" body "\n ret\n");

CASE(c_cli, "cli")
CASE(c_sti, "sti")
CASE(c_hlt, "hlt")
CASE(c_in_imm, "in $0x80, %al")
CASE(c_out_imm, "out %al, $0x80")
CASE(c_in_dx, "mov $0x3f8, %dx\n in %dx, %al")
CASE(c_outsb, "mov $0x3f8, %dx\n lea saved_rsp(%rip), %rsi\n outsb")
CASE(c_mov_from_cr0, "mov %cr0, %rax")
CASE(c_mov_to_cr3, "xor %eax, %eax\n mov %rax, %cr3")
CASE(c_mov_dr7, "mov %db7, %rax")
CASE(c_lgdt, "lgdt (%rsp)")
CASE(c_lidt, "lidt (%rsp)")
CASE(c_lldt, "xor %eax, %eax\n lldt %ax")
CASE(c_ltr, "xor %eax, %eax\n ltr %ax")
CASE(c_wrmsr, "xor %eax, %eax\n xor %edx, %edx\n mov $0x10, %ecx\n wrmsr")
CASE(c_rdmsr, "mov $0x10, %ecx\n rdmsr")
CASE(c_invlpg, "invlpg (%rsp)")
CASE(c_invd, "invd")
CASE(c_wbinvd, "wbinvd")
CASE(c_clts, "clts")
CASE(c_swapgs, "swapgs")
CASE(c_sysret, "sysretq")
CASE(c_iret_bad, "push $0\n push $0\n push $0\n push $0\n push $0\n iretq")
CASE(c_int_41, "int $0x41")
CASE(c_int_0e, "int $0x0e")
CASE(c_int_ff, "int $0xff")
CASE(c_int_04, "int $0x04")
CASE(c_int_03, "int $0x03")
CASE(c_int3, "int3")
CASE(c_int1, ".byte 0xf1")
CASE(c_ud2, "ud2")
CASE(c_ud1, "ud1 %eax, %eax")
CASE(c_bad_opcode, ".byte 0x06")
CASE(c_into, ".byte 0xce")
CASE(c_lock_nop, ".byte 0xf0, 0x90")
CASE(c_div0, "xor %ecx, %ecx\n mov $1, %eax\n xor %edx, %edx\n div %ecx")
CASE(c_idiv_ovf, "mov $0x80000000, %eax\n cdq\n mov $-1, %ecx\n idiv %ecx")
CASE(c_div64_0, "xor %ecx, %ecx\n mov $1, %eax\n xor %edx, %edx\n div %rcx")
CASE(c_jmp_noncanon, "movabs $0x8000000000000000, %rax\n jmp *%rax")
CASE(c_call_noncanon, "movabs $0x0000800000000000, %rax\n call *%rax")
CASE(c_ret_noncanon, "movabs $0x1234567812345678, %rax\n push %rax\n ret")
CASE(c_jmp_unmapped, "mov $0x10000, %eax\n jmp *%rax")
CASE(c_call_null, "xor %eax, %eax\n call *%rax")
CASE(c_read_noncanon, "movabs $0x8000000000001000, %rax\n mov (%rax), %rax")
CASE(c_write_noncanon, "movabs $0xffff000000000000, %rax\n movq $1, (%rax)")
/* Stack-segment accesses (push, pop, leave, operands based on RSP or RBP) to
 * a non-canonical address raise #SS, which Linux sends as SIGBUS; the
 * handler runs on the alternate stack. */
CASE(c_leave_noncanon, "movabs $0x8000000000000000, %rbp\n leave")
CASE(c_pop_noncanon, "movabs $0x8000000000000000, %rcx\n add %rcx, %rsp\n"
                     " pop %rax")
CASE(c_push_noncanon, "movabs $0x0000800000000000, %rcx\n add %rcx, %rsp\n"
                      " push %rax")
CASE(c_rbp_noncanon, "movabs $0x0000800000000000, %rbp\n mov 8(%rbp), %rax")
CASE(c_rsp_index_noncanon, "movabs $0x4000000000000000, %rax\n"
                           " mov (%rsp,%rax,2), %rcx")
CASE(c_rbp_ds_noncanon, "movabs $0x0000800000000000, %rbp\n"
                        " mov %ds:8(%rbp), %rax")
/* But not through FS, nor with RBP as the index: #GP, SIGSEGV. */
CASE(c_rbp_fs_noncanon, "movabs $0x0000800000000000, %rbp\n"
                        " mov %fs:8(%rbp), %rax")
CASE(c_rbp_index_noncanon, "movabs $0x0000800000000000, %rbp\n"
                           " xor %eax, %eax\n mov (%rax,%rbp), %rcx")
CASE(c_read_kernel, "movabs $0xffffffff81000000, %rax\n mov (%rax), %rax")
CASE(c_read_null, "xor %eax, %eax\n mov 8(%rax), %rax")
CASE(c_write_low, "mov $0x2000, %eax\n movl $1, (%rax)")
CASE(c_movaps_misaligned,
     "lea -33(%rsp), %rax\n and $-16, %rax\n inc %rax\n movaps (%rax), %xmm0")
CASE(c_paddd_misaligned,
     "lea -33(%rsp), %rax\n and $-16, %rax\n add $8, %rax\n paddd (%rax), %xmm0")
CASE(c_movntdq_misaligned,
     "lea -33(%rsp), %rax\n and $-16, %rax\n add $4, %rax\n movntdq %xmm0, (%rax)")
CASE(c_movups_misaligned,
     "lea -33(%rsp), %rax\n and $-16, %rax\n inc %rax\n movups (%rax), %xmm0\n"
     " movdqu %xmm0, (%rax)\n lddqu (%rax), %xmm1\n ud2")
CASE(c_pcmpistri_misaligned,
     "lea -33(%rsp), %rax\n and $-16, %rax\n inc %rax\n"
     " pcmpistri $0x0c, (%rax), %xmm0\n ud2")
CASE(c_ldmxcsr_reserved,
     "sub $8, %rsp\n movl $0x11f80, (%rsp)\n ldmxcsr (%rsp)\n add $8, %rsp")
CASE(c_store_across_page,
     "mov %rdi, %rax\n pcmpeqd %xmm0, %xmm0\n movups %xmm0, (%rax)")
CASE(c_sse_divzero, "sub $8, %rsp\n movl $0x1d80, (%rsp)\n ldmxcsr (%rsp)\n"
                    " add $8, %rsp\n xorps %xmm1, %xmm1\n mov $1, %eax\n"
                    " cvtsi2ss %eax, %xmm0\n divss %xmm1, %xmm0")
CASE(c_sse_invalid, "sub $8, %rsp\n movl $0x1f00, (%rsp)\n ldmxcsr (%rsp)\n"
                    " add $8, %rsp\n xorps %xmm1, %xmm1\n xorps %xmm0, %xmm0\n"
                    " divss %xmm1, %xmm0")
CASE(c_sse_inexact, "sub $8, %rsp\n movl $0x0f80, (%rsp)\n ldmxcsr (%rsp)\n"
                    " add $8, %rsp\n mov $3, %eax\n cvtsi2ss %eax, %xmm1\n"
                    " mov $1, %eax\n cvtsi2ss %eax, %xmm0\n divss %xmm1, %xmm0")
CASE(c_x87_divzero, "sub $8, %rsp\n movw $0x037b, (%rsp)\n fldcw (%rsp)\n"
                    " add $8, %rsp\n fld1\n fldz\n fdivrp\n fwait\n nop")
CASE(c_x87_invalid, "sub $8, %rsp\n movw $0x037e, (%rsp)\n fldcw (%rsp)\n"
                    " add $8, %rsp\n fldz\n fldz\n fdivrp\n fwait\n nop")

/* Page protections. */
CASE(c_write_text, "lea c_write_text(%rip), %rax\n movb $0xc3, (%rax)")
CASE(c_write_rodata, "lea ro_word(%rip), %rax\n movl $1, (%rax)")
CASE(c_exec_stack, "lea -64(%rsp), %rax\n movb $0xc3, (%rax)\n call *%rax")
CASE(c_exec_data, "lea rw_word(%rip), %rax\n movb $0xc3, (%rax)\n call *%rax")
CASE(c_read_above_brk, "mov %rdi, %rax\n mov (%rax), %rax")
CASE(c_read_none, "mov %rdi, %rax\n mov (%rax), %rax")
CASE(c_write_ro_map, "mov %rdi, %rax\n movl $1, 4(%rax)")
CASE(c_exec_rw_map, "mov %rdi, %rax\n movb $0xc3, (%rax)\n call *%rax")
CASE(c_exec_munmapped, "mov %rdi, %rax\n call *%rax")

const int ro_word = 1;
char rw_word[64] = {1};

struct fcase {
    const char *name;
    char *fn;
    char *at;
    int prot; /* 0: CPU, 1: protections */
};

#define C(n) {#n, c_##n, c_##n##_at, 0}
#define P(n) {#n, c_##n, c_##n##_at, 1}
static const struct fcase cases[] = {
    C(cli), C(sti), C(hlt), C(in_imm), C(out_imm), C(in_dx), C(outsb),
    C(mov_from_cr0), C(mov_to_cr3), C(mov_dr7), C(lgdt), C(lidt), C(lldt),
    C(ltr), C(wrmsr), C(rdmsr), C(invlpg), C(invd), C(wbinvd), C(clts),
    C(swapgs), C(sysret), C(iret_bad), C(int_41), C(int_0e), C(int_ff),
    C(int_04), C(int_03), C(int3), C(int1), C(ud2), C(ud1), C(bad_opcode),
    C(into), C(lock_nop), C(div0), C(idiv_ovf), C(div64_0), C(jmp_noncanon),
    C(call_noncanon), C(ret_noncanon), C(jmp_unmapped), C(call_null),
    C(read_noncanon), C(write_noncanon), C(leave_noncanon), C(pop_noncanon),
    C(push_noncanon), C(rbp_noncanon), C(rsp_index_noncanon),
    C(rbp_ds_noncanon), C(rbp_fs_noncanon), C(rbp_index_noncanon),
    C(read_kernel), C(read_null),
    C(write_low), C(movaps_misaligned), C(paddd_misaligned),
    C(movntdq_misaligned), C(movups_misaligned), C(pcmpistri_misaligned),
    C(ldmxcsr_reserved), C(store_across_page), C(sse_divzero), C(sse_invalid),
    C(sse_inexact), C(x87_divzero), C(x87_invalid),
    P(write_text), P(write_rodata), P(exec_stack), P(exec_data),
    P(read_above_brk), P(read_none), P(write_ro_map), P(exec_rw_map),
    P(exec_munmapped),
};

static const char *sig_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGBUS: return "SIGBUS";
    case SIGTRAP: return "SIGTRAP";
    default: return "other";
    }
}

/* An address as an offset from the case's faulting instruction when near it. */
static void where(char *buf, size_t n, unsigned long x) {
    static const struct {
        const char *name;
        const char **base;
    } near[] = {{"at", &cur_at}, {"arg", &cur_arg}};
    for (unsigned i = 0; i < sizeof near / sizeof *near; i++) {
        long d = (long)(x - (unsigned long)*near[i].base);
        if (*near[i].base && d > -64 && d < 64) {
            snprintf(buf, n, "%s%+ld", near[i].name, d);
            return;
        }
    }
    long d = (long)(x - (unsigned long)saved_rsp);
    if (d > -256 && d < 256)
        snprintf(buf, n, "rsp%+ld", d);
    else if (x - (unsigned long)&ro_word < 64)
        snprintf(buf, n, "ro_word%+ld", (long)(x - (unsigned long)&ro_word));
    else if (x - (unsigned long)rw_word < 64)
        snprintf(buf, n, "rw_word%+ld", (long)(x - (unsigned long)rw_word));
    else
        snprintf(buf, n, "%#lx", x);
}

static void handler(int sig, siginfo_t *si, void *ucv) {
    ucontext_t *uc = ucv;
    char addr[32], rip[32];
    unsigned int mxcsr;
    unsigned short fcw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fcw));
    where(addr, sizeof addr, (unsigned long)si->si_addr);
    where(rip, sizeof rip, (unsigned long)uc->uc_mcontext.gregs[REG_RIP]);
    printf("%s code=%d addr=%s rip=%s rsp%+ld trapno=%lld err=%#llx | handler "
           "mxcsr=%#x fcw=%#x\n",
           sig_name(sig), si->si_code, addr, rip,
           (long)uc->uc_mcontext.gregs[REG_RSP] - saved_rsp,
           (long long)uc->uc_mcontext.gregs[REG_TRAPNO],
           (long long)uc->uc_mcontext.gregs[REG_ERR], mxcsr, fcw);
    siglongjmp(env, 1);
}

static void *arg_for(const char *name) {
    long page = sysconf(_SC_PAGESIZE);
    if (!strcmp(name, "read_above_brk"))
        return (char *)sbrk(0) + 64 * page;
    if (!strcmp(name, "read_none"))
        return mmap(0, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!strcmp(name, "write_ro_map"))
        return mmap(0, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!strcmp(name, "exec_rw_map"))
        return mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
    if (!strcmp(name, "store_across_page")) {
        char *p = mmap(0, 2 * page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        munmap(p + page, page);
        return p + page - 8;
    }
    if (!strcmp(name, "exec_munmapped")) {
        char *p = mmap(0, 3 * page, PROT_READ | PROT_WRITE | PROT_EXEC,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        munmap(p + page, page);
        return p + page;
    }
    return 0;
}

static void run(const struct fcase *c, int die) {
    void *arg = arg_for(c->name);
    printf("%-18s ", c->name);
    fflush(stdout);
    cur_at = c->at;
    cur_arg = arg;
    if (sigsetjmp(env, 1) == 0) {
        if (die) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = SIG_DFL;
            for (int s = 1; s < 32; s++)
                sigaction(s, &sa, 0);
        }
        ((void (*)(void *))c->fn)(arg);
        printf("no fault\n");
    }
    if (!strcmp(c->name, "store_across_page")) {
        /* the 8 bytes before the page it could not write: still zero, as
           a faulting store writes nothing */
        unsigned long long kept;
        memcpy(&kept, arg, sizeof kept);
        printf("%-18s kept %016llx\n", c->name, kept);
    }
    /* Back to the state every case starts from. */
    __asm__ volatile("fninit");
    unsigned int mx = 0x1f80;
    __asm__ volatile("ldmxcsr %0" ::"m"(mx));
}

int main(int argc, char **argv) {
    static char altstack[65536];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGTRAP};
    for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, 0);
    const char *which = argc > 1 ? argv[1] : "all";
    int die = argc > 2 && !strcmp(argv[2], "die");
    int ran = 0;
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct fcase *c = &cases[i];
        if ((!strcmp(which, "all") && c->prot == 0) ||
            (!strcmp(which, "prot") && c->prot == 1) || !strcmp(which, c->name)) {
            run(c, die);
            ran++;
        }
    }
    if (!ran) {
        fprintf(stderr, "no case %s\n", which);
        return 2;
    }
    return 0;
}
