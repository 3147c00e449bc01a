// C++ allocations for `alloc-bytes`: g() asks operator new[] for 64 bytes
// and the nothrow operator new for 48 (112); operator new itself calls
// malloc, which must not count again.
#include <cstdio>
#include <new>

char *volatile keep[2];

__attribute__((noinline)) void g() {
    keep[0] = new char[64];
    keep[1] = static_cast<char *>(::operator new(48, std::nothrow));
}

int main() {
    g();
    delete[] keep[0];
    ::operator delete(keep[1]);
    std::puts("done");
    return 0;
}
