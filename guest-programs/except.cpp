// A C++ exception unwinds through several frames.
#include <cstdio>
#include <stdexcept>

volatile int sink;

__attribute__((noinline)) void thrower(int depth) {
    if (depth == 0)
        throw std::runtime_error("deep");
    thrower(depth - 1);
    sink++;
}

__attribute__((noinline)) void after() {
    for (int i = 0; i < 100; i++)
        sink += i;
}

int main() {
    try {
        thrower(5);
    } catch (const std::exception &e) {
        std::printf("caught %s\n", e.what());
    }
    after();
    std::printf("sink=%d\n", sink);
    return 0;
}
