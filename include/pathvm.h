/*
 * pathvm.h: region markers for programs profiled with pathvm (in the manner
 * of valgrind's callgrind.h client requests).
 *
 *   PATHVM_START()       count costs again after PATHVM_STOP()
 *   PATHVM_STOP()        stop counting costs (simulation and calls go on)
 *   PATHVM_ZERO()        discard every cost counted so far
 *   PATHVM_PHASE(name)   from here on, costs belong to phase `name`
 *                        (a string; the part before any phase is "main")
 *
 * Each marker is one `syscall` instruction with rax = 0x504100 + op
 * (op: 0 start, 1 stop, 2 zero, 3 phase; rdi = the phase name). Linux has
 * no system call of that number: run natively, a marker returns -ENOSYS
 * and does nothing else (a seccomp sandbox may answer another error; none
 * kills for it by default). Under `pathvm run` it is recognised, marks the
 * profile exactly at that instruction, and returns -ENOSYS as well, so the
 * program behaves the same either way. pathvm_marker() returns that value.
 *
 * Costs of the instructions up to and including a marker's `syscall` come
 * before the marker. The "memory" clobber keeps the compiler from moving
 * loads and stores across a marker; pure register arithmetic may still be
 * scheduled across it, so markers are exact at the instruction level but
 * the compiler decides which instructions lie on which side.
 *
 * On other architectures than x86-64 the macros do nothing.
 */
#ifndef PATHVM_H
#define PATHVM_H

#define PATHVM_MARKER_BASE 0x504100L
#define PATHVM_OP_START 0
#define PATHVM_OP_STOP 1
#define PATHVM_OP_ZERO 2
#define PATHVM_OP_PHASE 3

#if defined(__x86_64__)
static inline long pathvm_marker(long op, const char *name)
{
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"(PATHVM_MARKER_BASE + op), "D"(name)
                     : "rcx", "r11", "memory");
    return ret;
}
#else
static inline long pathvm_marker(long op, const char *name)
{
    (void)op;
    (void)name;
    return -38; /* ENOSYS */
}
#endif

#define PATHVM_START() ((void)pathvm_marker(PATHVM_OP_START, 0))
#define PATHVM_STOP() ((void)pathvm_marker(PATHVM_OP_STOP, 0))
#define PATHVM_ZERO() ((void)pathvm_marker(PATHVM_OP_ZERO, 0))
#define PATHVM_PHASE(name) ((void)pathvm_marker(PATHVM_OP_PHASE, (name)))

#endif /* PATHVM_H */
