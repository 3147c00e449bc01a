#!/usr/bin/env python3
"""The corpus: real programs from Debian packages, each run natively and under
`pathvm run`, compared exactly (stdout, guest stderr, exit status, and every
file left in the working directory, by content and mode).

Each case runs twice in a fresh directory of the same absolute path (first
natively, then under pathvm), filled with the same inputs, which this script
generates from fixed seeds. Both sides get the guest's fixed environment
(`PATH`, `HOME=/`, `LANG=C`, `TERM=dumb`, plus the case's own fixed variables
such as `TZ=UTC`), the same argv[0] (the program's absolute path) and the same
standard input. pathvm's own lines on stderr (`pathvm: ...`) are set apart and
shown, not compared: the guest's stderr is what remains.

    scripts/corpus.py [--only REGEX] [--quick] [--pathvm PATH] [-j N]
                      [--cpu MODEL] [--json FILE] [--list] [--keep]

Prints N/M identical and, for each difference, the case, the kind (stdout,
stderr, file, status, pathvm error, timeout), a short diff and the first lines
of pathvm's stderr. Exit status: 0 when every case that ran is identical, 1
otherwise, 2 on bad usage. A case whose program is not installed is skipped
with the reason (scripts/setup.sh installs them all).

Documentation: docs/corpus.md.
"""

import argparse
import concurrent.futures
import difflib
import json
import os
import random
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUEST_PATH = "/usr/local/bin:/usr/bin:/bin"
# pathvm's fixed guest environment (pathvm/src/options.rs, DEFAULT_ENV).
BASE_ENV = {"PATH": GUEST_PATH, "HOME": "/", "LANG": "C", "TERM": "dumb"}
# Programs are looked up where Debian installs them, so that a local build in
# /usr/local/bin does not stand in for the package.
DEBIAN_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
FIXED_MTIME = 1700000000  # 2023-11-14T22:13:20Z: every input file's time
FRESH_MTIME = int(time.time())  # the time of fresh/, the same for both sides
STEP_TIMEOUT = 600

# ---------------------------------------------------------------------------
# Inputs, generated from fixed seeds.

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qua",
             "bri", "dor", "fen", "gal", "hux", "jor", "pli", "str", "wy", "x"]
CITIES = ["Oslo", "Lima", "Pune", "Accra", "Quito", "Riga", "Turin", "Osaka",
          "Perth", "Dakar", "Hanoi", "Bern"]


def word(rng):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))


def gen_inputs(d):
    rng = random.Random(1)
    files = {}
    lines = []
    for i in range(4000):
        n = rng.randint(1, 12)
        ws = [word(rng) for _ in range(n)]
        if rng.random() < 0.1:
            ws[0] = ws[0].capitalize()
        lines.append(" ".join(ws))
    lines += lines[:300]  # duplicates for uniq
    files["words.txt"] = "\n".join(lines) + "\n"
    rng = random.Random(2)
    nums = []
    for i in range(3000):
        r = rng.random()
        if r < 0.4:
            nums.append(str(rng.randint(-10**6, 10**6)))
        elif r < 0.8:
            nums.append("%.*f" % (rng.randint(0, 6), rng.uniform(-1e4, 1e4)))
        else:
            nums.append("%d%s" % (rng.randint(1, 999), rng.choice(["K", "M", "G", ""])))
    files["nums.txt"] = "\n".join(nums) + "\n"
    rng = random.Random(3)
    rows = ["id,name,city,amount,day"]
    for i in range(1, 2001):
        rows.append("%d,%s,%s,%.2f,2023-%02d-%02d" % (
            i, word(rng).capitalize(), rng.choice(CITIES),
            rng.uniform(0, 5000), rng.randint(1, 12), rng.randint(1, 28)))
    files["data.csv"] = "\n".join(rows) + "\n"
    rng = random.Random(4)
    left = sorted({word(rng) + str(rng.randint(0, 99)) for _ in range(700)})
    files["left.txt"] = "".join("%s %d\n" % (k, rng.randint(0, 999)) for k in left)
    right = sorted(set(rng.sample(left, 400)) | {word(rng) + "z" for _ in range(100)})
    files["right.txt"] = "".join("%s %s\n" % (k, word(rng)) for k in right)
    files["set1.txt"] = "".join(k + "\n" for k in left[:500])
    files["set2.txt"] = "".join(k + "\n" for k in left[200:])
    rng = random.Random(5)
    objs = []
    for i in range(600):
        objs.append({"id": i, "name": word(rng), "city": rng.choice(CITIES),
                     "score": round(rng.uniform(0, 100), 3),
                     "tags": [word(rng) for _ in range(rng.randint(0, 3))],
                     "active": rng.random() < 0.5,
                     "parent": None if i < 10 else rng.randint(0, i - 1)})
    files["data.json"] = json.dumps(objs, indent=1) + "\n"
    rng = random.Random(6)
    files["blob.bin"] = bytes(rng.getrandbits(8) for _ in range(96 * 1024))
    rng = random.Random(7)
    mixed = bytearray()
    while len(mixed) < 300 * 1024:
        if rng.random() < 0.7:
            mixed += (" ".join(word(rng) for _ in range(rng.randint(3, 20))) + "\n").encode()
        else:
            mixed += bytes(rng.getrandbits(8) & rng.choice([0x0f, 0xff, 0x03]) for _ in range(rng.randint(8, 200)))
    files["mixed.bin"] = bytes(mixed)
    files["fileA.txt"] = "".join("line %d %s\n" % (i, word(random.Random(i))) for i in range(300))
    b = files["fileA.txt"].splitlines(True)
    b[10] = "changed ten\n"
    del b[50:53]
    b.insert(200, "inserted\n")
    files["fileB.txt"] = "".join(b)
    rng = random.Random(8)
    for i in range(30):
        sub = "tree/%s/%s" % (rng.choice(["a", "b", "c/d", "c/e/f"]), word(rng))
        ext = rng.choice([".txt", ".c", ".log", ".dat"])
        files[sub + ext] = "".join(word(rng) + "\n" for _ in range(rng.randint(0, 400)))
    files["prog.c"] = PROG_C
    files["util.c"] = UTIL_C
    files["util.h"] = "int collatz(unsigned long n);\ndouble harmonic(int n);\n"
    files["Makefile"] = MAKEFILE
    files["prog.py"] = PROG_PY
    files["prog.pl"] = PROG_PL
    files["prog.tcl"] = PROG_TCL
    files["prog.lua"] = PROG_LUA
    files["queries.sql"] = QUERIES_SQL
    files["calc.bc"] = CALC_BC
    files["report.awk"] = REPORT_AWK
    files["edit.sed"] = EDIT_SED
    files["fresh/new.txt"] = "written just now\n"
    files["fresh/Makefile"] = "out.txt: new.txt\n\tcp new.txt out.txt\n"
    files["utf8.txt"] = "".join("%s \u00e9t\u00e9 na\u00efve \u00fcber \u0153uvre \u20ac%d \u65e5\u672c\n"
                                % (word(random.Random(i)), i) for i in range(200))
    files["script.sh"] = "#!/bin/sh\necho \"args: $*\"\nexit 3\n"
    files["key.hex"] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n"
    for name, content in files.items():
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())
    os.chmod(os.path.join(d, "script.sh"), 0o755)
    fix_times(d)


def fix_times(d):
    """Every input's time is FIXED_MTIME, except fresh/ and what it holds:
    the time this script started, as files a user has just written."""
    for dirpath, dirnames, filenames in os.walk(d, topdown=False):
        for n in filenames + dirnames:
            p = os.path.join(dirpath, n)
            t = FRESH_MTIME if os.path.relpath(p, d).startswith("fresh") else FIXED_MTIME
            os.utime(p, (t, t), follow_symlinks=False)
    os.utime(d, (FIXED_MTIME, FIXED_MTIME))


PROG_C = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

struct item { char name[16]; double weight; int count; };

static int cmp(const void *a, const void *b) {
    const struct item *x = a, *y = b;
    return (x->weight > y->weight) - (x->weight < y->weight);
}

int main(int argc, char **argv) {
    struct item items[64];
    unsigned long seed = argc > 1 ? strtoul(argv[1], 0, 10) : 42;
    for (int i = 0; i < 64; i++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        snprintf(items[i].name, sizeof items[i].name, "item%02d", i);
        items[i].weight = (double)(seed >> 11) / 9007199254740992.0;
        items[i].count = collatz(seed % 10000 + 1);
    }
    qsort(items, 64, sizeof items[0], cmp);
    for (int i = 0; i < 64; i += 7)
        printf("%s %.17g %d\n", items[i].name, items[i].weight, items[i].count);
    printf("H(1000) = %.15f\n", harmonic(1000));
    return 0;
}
"""

UTIL_C = r"""#include "util.h"
int collatz(unsigned long n) { int s = 0; while (n != 1) { n = n & 1 ? 3 * n + 1 : n / 2; s++; } return s; }
double harmonic(int n) { double h = 0; for (int i = 1; i <= n; i++) h += 1.0 / i; return h; }
"""

MAKEFILE = """all: sorted.txt counts.txt summary.txt

sorted.txt: words.txt
\tsort words.txt > sorted.txt

counts.txt: sorted.txt
\tuniq -c sorted.txt | sort -rn | head -20 > counts.txt

summary.txt: counts.txt data.csv
\twc -l sorted.txt counts.txt > summary.txt
\tcut -d, -f3 data.csv | sort | uniq -c >> summary.txt
\t@echo done

.PHONY: all
"""

PROG_PY = r'''import decimal, fractions, hashlib, json, math, re, struct, zlib, sys
from dataclasses import dataclass

# integers
print(2**200, 3**150 % 1000000007, math.factorial(60))
print(sum(i * i for i in range(100000)), (-7) // 2, (-7) % 3, divmod(10**30 + 7, 97))
print(int("deadbeef" * 4, 16), bin(12345), hex(-255), (1 << 100).bit_length())
# floats
xs = [math.sin(i) * math.exp(i / 50) for i in range(200)]
print(repr(sum(xs)), math.fsum(xs), sorted(xs)[:3])
print(0.1 + 0.2, 1e308 * 10, -0.0, float("nan") != float("nan"), 2.5 .hex())
print("%.17g %e %g %.3f" % (math.pi, math.e, 1e-7, 2 / 3), round(2.675, 2), math.sqrt(2))
print(math.atan2(1, 2), math.log(10), math.log1p(1e-10), math.gamma(5.5), math.hypot(3, 4))
print(float.fromhex("0x1.8p3"), (1 / 3).as_integer_ratio(), 1e16 + 1, 7.0 // 2.5)
# decimal and fractions
decimal.getcontext().prec = 50
print(decimal.Decimal(1) / decimal.Decimal(7), decimal.Decimal(2).sqrt())
print(sum(fractions.Fraction(1, n) for n in range(1, 30)))
# json
data = json.load(open("data.json"))
print(len(data), json.dumps(data[3], sort_keys=True))
by_city = {}
for o in data:
    by_city.setdefault(o["city"], []).append(o["score"])
print(json.dumps({c: round(sum(v) / len(v), 6) for c, v in sorted(by_city.items())}))
# re
text = open("words.txt").read()
print(len(re.findall(r"\b(?:ka|lo)\w*", text)), re.sub(r"(\w+) (\w+)", r"\2 \1", text[:120]))
print(re.split(r"[aeiou]+", "stravoquabri"), bool(re.fullmatch(r"(\d+)-(\d+)", "12-34")))
# hashlib and zlib
blob = open("blob.bin", "rb").read()
for h in ("md5", "sha1", "sha256", "sha512", "blake2b", "sha3_256"):
    print(h, hashlib.new(h, blob).hexdigest())
z = zlib.compress(text.encode(), 9)
print(len(z), zlib.crc32(blob), zlib.adler32(blob), zlib.decompress(z) == text.encode())
# struct
packed = struct.pack("<iqdf4sH", -5, 2**40, math.pi, 1.5, b"abcd", 65535)
print(packed.hex(), struct.unpack("<iqdf4sH", packed))
# classes
@dataclass(order=True)
class Point:
    x: float
    y: float
    def norm(self):
        return math.hypot(self.x, self.y)
class Shape:
    def area(self): raise NotImplementedError
class Circle(Shape):
    def __init__(self, r): self.r = r
    def area(self): return math.pi * self.r ** 2
    def __repr__(self): return f"Circle({self.r})"
pts = sorted(Point(math.cos(i), math.sin(i)) for i in range(10))
print(pts[0], pts[-1].norm(), [round(Circle(r).area(), 4) for r in range(5)], Circle(2))
# exceptions
def risky(n):
    try:
        if n % 3 == 0: raise ValueError("three %d" % n)
        if n % 5 == 0: return 1 // 0
        return n
    except ValueError as e:
        return str(e)
    except ZeroDivisionError as e:
        return type(e).__name__
    finally:
        pass
print([risky(i) for i in range(1, 16)])
try:
    {}["missing"]
except KeyError as e:
    print("KeyError", e)
sys.stderr.write("to stderr\n")
sys.exit(7)
'''

PROG_PL = r'''use strict; use warnings;
use Digest::MD5 qw(md5_hex); use List::Util qw(sum max min reduce); use POSIX qw(floor ceil fmod);
open(my $fh, "<", "words.txt") or die; my %count; my $lines = 0;
while (<$fh>) { $lines++; $count{$_}++ for split; }
close $fh;
my @top = (sort { $count{$b} <=> $count{$a} || $a cmp $b } keys %count)[0..9];
print "$lines lines, ", scalar(keys %count), " words\n";
printf "%-10s %d\n", $_, $count{$_} for @top;
open($fh, "<", "data.csv") or die; <$fh>; my (%sum, %n);
while (<$fh>) { chomp; my @f = split /,/; $sum{$f[2]} += $f[3]; $n{$f[2]}++; }
printf "%s %.4f %.6e\n", $_, $sum{$_} / $n{$_}, $sum{$_} for sort keys %sum;
print md5_hex(join(",", sort keys %count)), "\n";
my @xs = map { sin($_) * 1000 } 1..100;
printf "%.10f %.10f %.10f %s\n", sum(@xs), max(@xs), min(@xs), reduce { $a * 1.0001 + $b } @xs;
print join(" ", unpack("H*", pack("NnC a4 d", 305419896, 4660, 255, "perl", 3.14159))), "\n";
my $s = "The quick brown fox jumps over the lazy dog";
(my $t = $s) =~ s/(\w+)/\u\L$1/g; print "$t\n";
print join("|", $s =~ /\b(\w)(\w*)\b/g), "\n";
printf "%s %s %s %s\n", floor(-2.5), ceil(-2.5), fmod(10, 3), 2**0.5;
print 9**20, " ", 1/7, " ", int(7.999999999999999), " ", 1e21, " ", 0.1+0.2, "\n";
eval { die "oops\n" }; print "caught: $@";
warn "a warning\n";
exit 4;
'''

PROG_TCL = r'''set f [open words.txt]; set n 0
while {[gets $f line] >= 0} { incr n; foreach w $line { dict incr counts $w } }
close $f
puts "lines $n words [dict size $counts]"
set top [lrange [lsort -stride 2 -index 1 -integer -decreasing [lsort -stride 2 $counts]] 0 19]
foreach {w c} $top { puts [format "%-12s %4d" $w $c] }
puts [expr {2**100}]; puts [expr {sqrt(2)}]; puts [expr {1.0/3}]; puts [format %.15e [expr {exp(1)}]]
proc fib {n} { if {$n < 2} { return $n }; expr {[fib [expr {$n-1}]] + [fib [expr {$n-2}]]} }
puts "fib 20 = [fib 20]"
puts [string map {ka KA lo LO} [string range [read [open words.txt]] 0 200]]
puts [regsub -all {(\w)(\w*)} "hello tcl world" {\2\1ay}]
puts [clock format 1700000000 -gmt 1 -format "%Y-%m-%d %H:%M:%S %A"]
puts [binary encode hex [binary format IsSd 1 2 3 1.5]]
if {[catch {error "boom"} msg]} { puts "caught $msg" }
'''

PROG_LUA = r'''local counts, n = {}, 0
for line in io.lines("words.txt") do
  n = n + 1
  for w in line:gmatch("%S+") do counts[w] = (counts[w] or 0) + 1 end
end
local keys = {}
for k in pairs(counts) do keys[#keys + 1] = k end
table.sort(keys, function(a, b) if counts[a] ~= counts[b] then return counts[a] > counts[b] end return a < b end)
print("lines", n, "words", #keys)
for i = 1, 10 do print(string.format("%-10s %d", keys[i], counts[keys[i]])) end
print(2^53, math.maxinteger, 7 // 2, 7.0 // 2, -7 % 3, 3 / 2, math.pi, math.sqrt(2))
print(string.format("%.17g %g %5.2f %x", 0.1 + 0.2, 1e-5, math.exp(1), 255))
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
print("fib", fib(24))
local t = {}
for i = 1, 1000 do t[i] = (i * 7919) % 1009 end
table.sort(t)
print(t[1], t[500], t[1000], table.concat(t, ",", 1, 10))
print(("hello world"):rep(3, "-"):upper(), ("abc"):byte(1, -1))
local ok, err = pcall(function() error({code = 42}) end)
print(ok, type(err), err.code)
print(string.pack("<i4d", 7, 1.5):byte(1, -1))
io.stderr:write("lua stderr\n")
os.exit(5)
'''

QUERIES_SQL = r"""
.mode list
.import --csv data.csv people
select count(*), sum(amount), avg(amount), min(day), max(day) from people;
select 1520.0, 0.1 + 0.2, 1e300 * 10, 2.5e-7, round(2.675, 2), 1.0 / 3, 100.0, -0.5;
select printf('%.10f %e %g %5.1f', 3.14159265358979, 12345.678, 0.0001, 99.95);
create table cities(name text primary key, country text);
insert into cities values ('Oslo','NO'),('Lima','PE'),('Pune','IN'),('Accra','GH'),('Quito','EC'),('Riga','LV');
select c.country, count(*), round(sum(p.amount), 2) from people p join cities c on p.city = c.name group by c.country order by 1;
select p.city, count(c.name) from people p left join cities c on p.city = c.name group by p.city order by 1;
select id, name, amount, rank() over (partition by city order by amount desc) r,
       round(sum(amount) over (partition by city order by id rows between 2 preceding and current row), 2) s
  from people where id <= 40 order by city, r;
select city, ntile(4) over (order by amount), lag(amount) over (order by id), lead(name, 2) over (order by id)
  from people where id between 100 and 115;
with recursive fib(i, a, b) as (select 1, 0, 1 union all select i + 1, b, a + b from fib where i < 80)
  select i, a from fib where i % 10 = 0;
with recursive cnt(x) as (select 1 union all select x + 1 from cnt where x < 1000)
  select sum(x), total(x * 0.5), group_concat(x, '') filter (where x % 97 = 0) from cnt;
with recursive
  xaxis(x) as (values(-2.0) union all select x + 0.05 from xaxis where x < 1.2),
  yaxis(y) as (values(-1.0) union all select y + 0.1 from yaxis where y < 1.0),
  m(iter, cx, cy, x, y) as (
    select 0, x, y, 0.0, 0.0 from xaxis, yaxis
    union all
    select iter + 1, cx, cy, x * x - y * y + cx, 2.0 * x * y + cy from m
     where (x * x + y * y) < 4.0 and iter < 28),
  m2(iter, cx, cy) as (select max(iter), cx, cy from m group by cx, cy),
  a(t) as (select group_concat(substr(' .+*#', 1 + min(iter / 7, 4), 1), '') from m2 group by cy)
select group_concat(rtrim(t), x'0a') from a;
select json_object('n', count(*), 'cities', json_group_array(distinct city)) from people;
select json_extract('{"a":[1,2,{"b":3.5}]}', '$.a[2].b'), json_array_length('[1,2,3]'),
       json_each.key, json_each.value from json_each('{"x":1,"y":[2,3],"z":null}');
select value from json_tree('{"a":{"b":[10,20]}}') where type = 'integer';
create table t(a integer, b real, c text, d blob);
insert into t values (1, 1.5, 'x', x'00ff'), (2, null, 'y', zeroblob(3)), (9223372036854775807, -1e-310, 'z', null);
select a, b, typeof(b), hex(d), a + 1 from t;
select sqlite_version() is not null, length(randomblob(16)), abs(-9223372036854775807), 5 / 2, 5 % 3, 1 << 62;
"""

CALC_BC = r"""scale=60
4*a(1)
sqrt(2)
e(1)
l(10)
s(1); c(1)
scale=0
2^512
define f(n) { if (n < 2) return 1; return n * f(n - 1); }
f(80)
obase=16
255 * 255 * 255
obase=10
scale=20
1/7
quit
"""

REPORT_AWK = r"""BEGIN { FS = ","; srand(1) }
NR > 1 { n[$3]++; s[$3] += $4; if ($4 > mx[$3]) mx[$3] = $4; month[substr($5, 6, 2)]++ }
END {
  PROCINFO["sorted_in"] = "@ind_str_asc"
  for (c in n) printf "%-6s %4d %12.4f %10.2f %e\n", c, n[c], s[c] / n[c], mx[c], s[c]
  for (m in month) printf "%s:%d ", m, month[m]; print ""
  printf "%.15g %.15g %d %s\n", atan2(0, -1), exp(1), int(-3.7), 2^53 + 1
  print rand(), rand(), toupper(substr("gawk rules", 1, 4)), length("héllo")
  print strftime("%Y-%m-%d %H:%M:%S", 1700000000, 1), sprintf("%05.1f|%-5s|%c", 3.14159, "ab", 65)
  x = "a1b22c333"; gsub(/[0-9]+/, "<&>", x); print x, split("a:b:c", arr, ":"), arr[3]
}
"""

EDIT_SED = r"""1,5d
/^ka/ s/ka/KA/g
s/\([a-z]*\)o \([a-z]*\)/\2 o \1/
/str$/ {
  s/str$/STRING/
  a\
appended line
}
$ a\
the end
y/xyz/XYZ/
"""

# ---------------------------------------------------------------------------
# Cases.


class Case:
    def __init__(self, name, *steps, env=None, stderr=True,
                 trace=False, ignore_files=(), why_ignore=None, run_opts=()):
        self.name = name
        # Options of `pathvm run` the case needs (its configuration, not a
        # weakening of the comparison).
        self.run_opts = list(run_opts)
        self.steps = [s if isinstance(s, Step) else Step(s) for s in steps]
        self.quick = False  # set from QUICK below
        self.env = dict(env or {})
        self.stderr = stderr
        self.trace = trace
        self.ignore_files = [re.compile(p) for p in ignore_files]
        if ignore_files and not why_ignore:
            raise ValueError(name + ": ignored files need a reason")


class Step:
    def __init__(self, argv, stdin=None, out=None):
        self.argv = argv.split() if isinstance(argv, str) else list(argv)
        self.stdin = stdin  # a file of the working directory, or None (/dev/null)
        self.out = out  # stdout also written to this file of the working directory


S = Step
UTC = {"TZ": "UTC"}
GIT_ENV = {
    "TZ": "UTC", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_AUTHOR_NAME": "Corpus Author", "GIT_AUTHOR_EMAIL": "author@example.org",
    "GIT_COMMITTER_NAME": "Corpus Committer", "GIT_COMMITTER_EMAIL": "committer@example.org",
    "GIT_AUTHOR_DATE": "1700000000 +0000", "GIT_COMMITTER_DATE": "1700000000 +0000",
}
GIT_INDEX = dict(ignore_files=[r"^repo/\.git/index$"],
                 why_ignore="the index caches each file's inode, device and ctime, "
                            "which differ between any two runs")


def compressor(name, prog, comp, decomp, src="mixed.bin"):
    """Compress a file to a file, test it, decompress to stdout and to a file."""
    return Case(name,
                S([prog] + comp + [src]),
                S([prog] + decomp))


CASES = [
    # coreutils text tools
    Case("sort", "sort words.txt"),
    Case("sort-n", "sort -n nums.txt"),
    Case("sort-g", "sort -g -r nums.txt"),
    Case("sort-h", "sort -h nums.txt"),
    Case("sort-csv-key", ["sort", "-t,", "-k3,3", "-k4,4nr", "data.csv"]),
    Case("sort-u-o", "sort -u -o out.txt words.txt"),
    Case("uniq-c", S("uniq -c", stdin="words.txt")),
    Case("sort-uniq", S("sort words.txt -o sorted.txt"), S("uniq -cd sorted.txt")),
    Case("wc", "wc words.txt nums.txt data.csv blob.bin"),
    Case("wc-m", "wc -mLw mixed.bin"),
    Case("cut", ["cut", "-d,", "-f2,4", "data.csv"]),
    Case("cut-c", "cut -c3-9,20- words.txt"),
    Case("tr", S("tr a-z A-Z", stdin="words.txt")),
    Case("tr-ds", S(["tr", "-s", " ", "-d", "aeiou"], stdin="words.txt")),
    Case("join", "join -a1 -e NONE -o 0,1.2,2.2 left.txt right.txt"),
    Case("paste", ["paste", "-d:", "left.txt", "set1.txt", "nums.txt"]),
    Case("comm", "comm -3 set1.txt set2.txt"),
    Case("sha256sum", "sha256sum words.txt blob.bin mixed.bin"),
    Case("digests", "md5sum -b blob.bin mixed.bin"),
    Case("sha512-b2", "b2sum mixed.bin"),
    # xxhsum picks its XXH3 code by CPUID at run time (SSE2, or AVX2 under
    # --cpu x86-64-v3)
    Case("xxhsum", S("xxhsum -H3 words.txt blob.bin mixed.bin"), S("xxhsum -H2 blob.bin mixed.bin"),
         S("xxhsum -H1 blob.bin mixed.bin"), S("xxhsum -H0 mixed.bin")),
    Case("cksum", "cksum blob.bin data.csv"),
    Case("base64", S("base64 -w 60 blob.bin", out="b64.txt"), S("base64 -d", stdin="b64.txt")),
    Case("od", "od -A x -t x1z -N 4096 mixed.bin"),
    Case("od-float", "od -A d -t f8 -N 2048 blob.bin"),
    Case("head-tail", S("head -c 1000 words.txt"), S("tail -n 17 words.txt")),
    Case("tac-nl", S("tac words.txt"), S("nl -ba -w4 data.csv")),
    Case("fold-fmt", S("fold -w 37 -s words.txt"), S("fmt -w 50 words.txt")),
    Case("seq-factor", S("seq -f %.3f 0 0.37 40"), S("factor 1 2 600851475143 18446744073709551557 9999999967")),
    Case("numfmt", "numfmt --to=iec-i --suffix=B 1 1023 1024 123456789 987654321098"),
    Case("split", S("split -l 500 -d words.txt part-"), S("wc -l part-00 part-07")),
    Case("shuf-seeded", "shuf --random-source=blob.bin words.txt"),
    Case("date-fixed", "date -d @1700000000 +%Y-%m-%dT%H:%M:%S%z_%A_%j", env=UTC),
    Case("stat-fixed", "stat -c %n:%s:%a:%Y words.txt data.csv tree"),
    Case("diff", S("diff -u fileA.txt fileB.txt")),
    Case("diff-patch", S("diff -u fileA.txt fileB.txt", out="d.patch"),
         S("patch -o patched.txt fileA.txt d.patch"), S("cmp patched.txt fileB.txt")),
    Case("missing-file", "cat words.txt no-such-file"),
    # grep, sed, gawk
    Case("grep", "grep -c -E ^(ka|lo).*(str|x)$ words.txt"),
    Case("grep-o", "grep -o -i -n \\bqua[a-z]* words.txt"),
    Case("grep-r", "grep -r -l -F kalo tree"),
    Case("grep-P", ["grep", "-P", "-o", r"(?<=,)[A-Z]\w+(?=,Oslo)", "data.csv"]),
    Case("grep-v-nomatch", "grep -v -c . data.csv"),
    Case("sed", "sed -f edit.sed words.txt"),
    Case("sed-E-n", ["sed", "-E", "-n", r"s/^([0-9]+),([^,]+),Lima,.*/\2 \1/p", "data.csv"]),
    Case("sed-i", S("cp words.txt w.txt"), S(["sed", "-i", "s/[aeiou]/_/3g", "w.txt"])),
    Case("gawk", "gawk -f report.awk data.csv", env=UTC),
    Case("gawk-fields", ["gawk", "{ for (i = NF; i > 0; i--) printf \"%s%s\", $i, (i > 1 ? OFS : ORS) }",
                         "words.txt"]),
    Case("gawk-math", ["gawk", "BEGIN { for (i = 1; i <= 40; i++) printf \"%.17g %.10e %d\\n\", "
                       "sin(i) / i, exp(i / 3), 2^i; print 0.1 + 0.2 == 0.3 }"]),
    # find, tar
    Case("find", ["find", "tree", "-name", "*.txt", "-size", "+1k", "-printf", "%p %s %d\n"]),
    Case("find-newer", ["find", "tree", "-type", "f", "-newermt", "2023-01-01", "-name", "*.c"]),
    Case("tar", S("tar --sort=name --mtime=@1700000000 --owner=0 --group=0 --numeric-owner -cf out.tar tree"),
         S("tar -tvf out.tar"), S("mkdir x"), S("tar -xf out.tar -C x"), S("diff -r tree x/tree"),
         env=UTC),
    Case("tar-gz", S("tar --sort=name --mtime=@1700000000 --owner=0 --group=0 --numeric-owner -czf out.tgz tree"),
         S("tar -tzf out.tgz"), env={"GZIP": "-n", "TZ": "UTC"}),
    # compressors, round trips
    compressor("gzip", "gzip", ["-9", "-k", "-n"], ["-d", "-c", "mixed.bin.gz"]),
    Case("gzip-stdout", S("gzip -c -6 -n", stdin="words.txt"), S("gzip -l -v mixed.bin")),
    compressor("bzip2", "bzip2", ["-9", "-k"], ["-d", "-c", "mixed.bin.bz2"]),
    compressor("xz", "xz", ["-6", "-k", "-T1"], ["-d", "-c", "mixed.bin.xz"]),
    Case("xz-extreme", S("xz -9e -k -T1 words.txt"), S("xz -l words.txt.xz"), S("xz -t words.txt.xz")),
    compressor("zstd", "zstd", ["-19", "-q", "-T1"], ["-d", "-c", "mixed.bin.zst"]),
    compressor("lz4", "lz4", ["-9", "-q"], ["-d", "-c", "mixed.bin.lz4"]),
    compressor("brotli", "brotli", ["-q", "9", "-k"], ["-d", "-c", "mixed.bin.br"]),
    # sqlite3
    Case("sqlite3", S("sqlite3 -batch :memory:", stdin="queries.sql")),
    Case("sqlite3-file", S(["sqlite3", "db.sqlite", "create table t(x, y); insert into t "
                            "select value, value * 1.5 from generate_series(1, 2000); "
                            "create index i on t(y); vacuum;"]),
         S(["sqlite3", "db.sqlite", "select count(*), sum(y), max(x) from t; pragma integrity_check;"])),
    # interpreters
    Case("perl", "perl prog.pl", env={"PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"}),
    Case("perl-oneliner", ["perl", "-lane", "$s += length($F[0]); END { print $s; print scalar(localtime(0)) }",
                           "words.txt"], env=UTC),
    Case("python3", "python3 prog.py", env={"PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"},
         ),
    Case("python3-bigint", ["python3", "-c", "import math; n = math.factorial(3000); "
                            "print(len(str(n)), n % (2**61 - 1), pow(3, 10**5, 10**9 + 7))"],
         env={"PYTHONHASHSEED": "0"}),
    Case("tclsh", "tclsh prog.tcl"),
    Case("lua", "lua5.4 prog.lua"),
    Case("jq", ["jq", "-c", "group_by(.city) | map({city: .[0].city, n: length, "
                "avg: (map(.score) | add / length), tags: (map(.tags[]) | unique | length)})",
                "data.json"]),
    Case("jq-filters", ["jq", "-r", ".[] | select(.active and .score > 90) | "
                        "[.id, .name, .score, (.score * 1.1 | floor), (.tags | join(\"+\"))] | @csv",
                        "data.json"]),
    Case("jq-math", ["jq", "-n", "[range(1; 30) | {i: ., s: (. | sqrt), p: pow(2; .), l: (. | log)}] "
                     "| .[-3:], (1e1000 | tostring), (0.1 + 0.2), ([3,1,2] | sort), (\"x\" * 0)"]),
    Case("bc", S("bc -l -q", stdin="calc.bc")),
    # openssl
    Case("openssl-dgst", "openssl dgst -sha256 -sha512 -sha3-256 -md5 blob.bin mixed.bin"),
    Case("openssl-hmac", "openssl dgst -sha256 -hmac fixed-key words.txt"),
    Case("openssl-aes", S("openssl enc -aes-256-cbc -K " + "00" * 32 + " -iv " + "11" * 16
                          + " -in mixed.bin -out mixed.enc"),
         S("openssl enc -d -aes-256-cbc -K " + "00" * 32 + " -iv " + "11" * 16 + " -in mixed.enc -out mixed.dec"),
         S("cmp mixed.bin mixed.dec")),
    Case("openssl-chacha", S("openssl enc -chacha20 -K " + "22" * 32 + " -iv " + "33" * 16
                             + " -in words.txt -a")),
    Case("openssl-gcm-pbkdf2", S("openssl enc -aes-128-ctr -pbkdf2 -iter 2000 -S 0102030405060708 "
                                 "-pass pass:secret -in data.csv -out d.enc"),
         S("openssl enc -d -aes-128-ctr -pbkdf2 -iter 2000 -pass pass:secret -in d.enc")),
    # git in a temporary repository with fixed dates
    Case("git", S("git init -q -b main repo"), S("cp -r tree repo/"),
         S("git -C repo add -A"), S("git -C repo commit -q -m first"),
         S("cp words.txt repo/tree/w.txt"), S("git -C repo add tree/w.txt"),
         S("git -C repo commit -q -m second"),
         S("git -C repo log --stat --format=%H%n%an%n%ad%n%s"),
         S("git -C repo cat-file -p HEAD"), S("git -C repo diff --stat HEAD~1"),
         env=GIT_ENV, **GIT_INDEX),
    Case("git-hash", "git hash-object words.txt blob.bin mixed.bin", env=GIT_ENV),
    # gcc, make, file(1)
    Case("gcc", "gcc -O2 -c prog.c -o prog.o", trace=True),
    Case("gcc-link", S("gcc -O1 -o prog prog.c util.c"), S("./prog 7"), trace=True),
    Case("make", "make", trace=True),
    Case("make-native-children", "make -n"),
    Case("file", "file words.txt data.csv data.json blob.bin mixed.bin prog.c Makefile script.sh tree "
         "prog.py /bin/true /usr/bin/perl"),
    Case("gcc-g", "gcc -g -O0 -c util.c -o util.o", trace=True),
    Case("readelf", "readelf -h -l -S -s --wide /bin/true"),
    Case("objdump", "objdump -d --no-show-raw-insn /bin/true"),
    # scripts, shells and children
    Case("shell-script", "sh script.sh one two"),
    Case("script-direct", "./script.sh one two"),
    Case("sh-pipeline", ["sh", "-c", "sort words.txt | uniq -c | sort -rn | head -5; echo $?"]),
    Case("sh-pipeline-traced", ["sh", "-c", "sort words.txt | uniq -c | sort -rn | head -5; echo $?"],
         trace=True),
    Case("xargs-traced", S("xargs -n 7 echo", stdin="set1.txt"), trace=True),
    Case("find-exec", ["find", "tree", "-name", "*.c", "-exec", "wc", "-l", "{}", "+"]),
    Case("python3-subprocess", ["python3", "-c", "import subprocess; "
                                "p = subprocess.run(['sort', '-r', 'set1.txt'], capture_output=True); "
                                "print(p.returncode, len(p.stdout), p.stdout[:40])"],
         env={"PYTHONHASHSEED": "0"}),
    Case("timeout", "timeout 60 cat set1.txt"),
    Case("env", "env"),
    # threads
    Case("xz-threads", S("xz -6 -T2 --block-size=65536 -k mixed.bin"), S("xz -d -c -T2 mixed.bin.xz")),
    Case("zstd-threads", S("zstd -T2 -q -3 --long mixed.bin"), S("zstd -d -c mixed.bin.zst")),
    Case("sort-parallel", "sort --parallel=2 -S 64K -T . words.txt"),
    # more libraries and modules
    Case("iconv", S("iconv -f UTF-8 -t UTF-16LE utf8.txt", out="u16.txt"),
         S("iconv -f UTF-16LE -t ISO-8859-1//TRANSLIT u16.txt")),
    Case("sort-utf8", "sort utf8.txt", env={"LC_ALL": "C.UTF-8"}),
    Case("python3-modules", ["python3", "-c", "import sqlite3, zipfile, csv, statistics, datetime; "
                             "db = sqlite3.connect(':memory:'); "
                             "print(db.execute('select 1520.0, 2.0 / 3').fetchone()); "
                             "rows = list(csv.DictReader(open('data.csv'))); "
                             "xs = [float(r['amount']) for r in rows]; "
                             "print(statistics.mean(xs), statistics.stdev(xs), statistics.median(xs)); "
                             "print(datetime.datetime(2023, 11, 14, 22, 13, 20) + datetime.timedelta(days=100)); "
                             "z = zipfile.ZipFile('out.zip', 'w', zipfile.ZIP_DEFLATED); "
                             "z.write('words.txt'); z.write('data.csv'); z.close()"],
         env={"PYTHONHASHSEED": "0"}),
    Case("python3-json-tool", "python3 -m json.tool --sort-keys data.json", env={"PYTHONHASHSEED": "0"}),
    Case("perl-json", ["perl", "-MJSON::PP", "-e", "local $/; open my $f, '<', 'data.json'; "
                       "my $d = decode_json(<$f>); my %c; $c{$_->{city}} += $_->{score} for @$d; "
                       "print JSON::PP->new->canonical->encode(\%c), qq(\n)"]),
    Case("openssl-prime", "openssl prime 170141183460469231731687303715884105727 "
         "170141183460469231731687303715884105729"),
    # the process as the kernel shows it
    Case("proc-cmdline", "cat /proc/self/cmdline"),
    Case("proc-exe", "readlink /proc/self/exe /proc/thread-self/exe"),
    Case("proc-status", ["grep", "-E", "^(Name|Umask|State|Threads|SigBlk|SigIgn|SigCgt|NoNewPrivs):",
                         "/proc/self/status"]),
    Case("sh-limits", ["sh", "-c", "ulimit -s; ulimit -n; umask"]),
    # files written just now (fresh/): their times are after the VM's fixed
    # clock, so the programs that compare them with the clock run with
    # --clock-start now, as a user would
    Case("ls-fresh", "ls -l --time-style=long-iso fresh", env=UTC),
    Case("tar-fresh", S("tar --owner=0 --group=0 --numeric-owner -cf f.tar fresh"),
         S("mkdir y"), S("tar -xf f.tar -C y"), env=UTC, run_opts=["--clock-start", "now"]),
    Case("make-fresh", S("make -C fresh"), trace=True, run_opts=["--clock-start", "now"]),
]


# The quick subset (the test suite's, tests/corpus.rs): one case of most
# kinds, each a few seconds under pathvm.
QUICK = {"sort", "wc", "sha256sum", "missing-file", "grep", "sed", "gawk", "gzip", "bzip2",
         "sqlite3-file", "perl-oneliner", "python3-bigint", "lua", "jq-filters", "bc",
         "openssl-dgst", "git-hash", "script-direct", "sh-pipeline", "timeout", "proc-cmdline"}
for _c in CASES:
    _c.quick = _c.name in QUICK
assert len({c.name for c in CASES}) == len(CASES), "case names must be unique"
assert QUICK <= {c.name for c in CASES}, "QUICK names a case that does not exist"

# ---------------------------------------------------------------------------
# Running.


def resolve(prog):
    if "/" in prog:
        return prog
    return shutil.which(prog, path=DEBIAN_PATH)


def native_limits():
    """The native side gets the soft limit of descriptors that pathvm gives
    its guest whatever the host's (Linux's default, 1024), as it gets the
    guest's fixed environment: set once here, inherited by both sides."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


def fill(w, inputs):
    shutil.copytree(inputs, w, symlinks=True)
    fix_times(w)


def run_step(step, w, env, pathvm, profile, trace, timeout, run_opts=()):
    argv = [resolve(step.argv[0])] + step.argv[1:]
    if pathvm:
        cmd = [pathvm, "run", "-q", "-o", profile] + list(run_opts)
        if trace:
            cmd.append("--trace-children")
        for k, v in sorted(env.items()):
            if BASE_ENV.get(k) != v:
                cmd += ["--env", "%s=%s" % (k, v)]
        cmd += ["--"] + argv
    else:
        cmd = argv
    stdin = open(os.path.join(w, step.stdin), "rb") if step.stdin else subprocess.DEVNULL
    try:
        p = subprocess.run(cmd, cwd=w, env=env, stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout", e.stdout or b"", e.stderr or b""
    finally:
        if step.stdin:
            stdin.close()


def snapshot(w, ignore):
    """Every path below w, with its kind, mode and content (None when ignored)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(w):
        dirnames.sort()
        for n in sorted(dirnames + filenames):
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, w)
            st = os.lstat(p)
            if any(r.search(rel) for r in ignore):
                out[rel] = ("ignored",)
            elif stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", oct(st.st_mode & 0o7777))
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    out[rel] = ("file", oct(st.st_mode & 0o7777), f.read())
            else:
                out[rel] = ("other", stat.S_IFMT(st.st_mode))
    return out


def split_stderr(err):
    """The guest's stderr, and pathvm's own lines."""
    guest, own = [], []
    for line in err.splitlines(True):
        (own if line.startswith(b"pathvm: ") else guest).append(line)
    return b"".join(guest), b"".join(own)


def short_diff(a, b, limit=12):
    if b"\0" in a or b"\0" in b or len(a) > 4 << 20:
        n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        out = ["    binary: %d bytes native, %d under pathvm, first difference at byte %d"
               % (len(a), len(b), n)]
        if len(a) + len(b) <= 600:
            out += ["    native: %r" % a, "    pathvm: %r" % b]
        return out
    lines = list(difflib.unified_diff(a.decode("utf-8", "replace").splitlines(),
                                      b.decode("utf-8", "replace").splitlines(),
                                      "native", "pathvm", n=1, lineterm=""))
    out = ["    " + l[:160] for l in lines[:limit]]
    if len(lines) > limit:
        out.append("    ... (%d more diff lines)" % (len(lines) - limit))
    return out


def run_case(case, inputs, pathvm, timeout, keep, cpu=None):
    missing = [s.argv[0] for s in case.steps if resolve(s.argv[0]) is None]
    if missing:
        return {"name": case.name, "result": "skipped",
                "why": "not installed: %s (scripts/setup.sh installs it)" % ", ".join(sorted(set(missing)))}
    env = dict(BASE_ENV)
    env.update(case.env)
    base = tempfile.mkdtemp(prefix="pathvm-corpus-%s-" % case.name)
    t0 = time.monotonic()
    w = os.path.join(base, "w")
    profile = os.path.join(base, "profile.out")
    sides = {}
    for side, vm in (("native", None), ("pathvm", pathvm)):
        fill(w, inputs)
        steps = []
        for step in case.steps:
            status, out, err = run_step(step, w, env, vm, profile, case.trace, timeout,
                                       tuple(case.run_opts) + (("--cpu", cpu) if cpu else ()))
            guest_err, own = split_stderr(err) if vm else (err, b"")
            steps.append((status, out, guest_err, own))
            if step.out:
                with open(os.path.join(w, step.out), "wb") as f:
                    f.write(out)
            if status == "timeout":
                break
        sides[side] = (steps, snapshot(w, case.ignore_files))
        os.rename(w, os.path.join(base, side))
    diffs = []  # (kind, lines)
    notes = []
    nat_steps, nat_files = sides["native"]
    vm_steps, vm_files = sides["pathvm"]
    for i, step in enumerate(case.steps):
        label = " ".join(step.argv)
        if len(case.steps) > 1:
            label = "step %d (%s)" % (i + 1, label[:60])
        else:
            label = label[:70]
        if i >= len(vm_steps) or i >= len(nat_steps):
            break
        ns, no, ne, _ = nat_steps[i]
        vs, vo, ve, own = vm_steps[i]
        if own:
            notes.append("%s: pathvm said: %s" % (label, own.decode("utf-8", "replace").splitlines()[0][:150]))
        if vs == "timeout" or ns == "timeout":
            diffs.append(("timeout", ["    %s: %s timed out after %ds" % (label, "pathvm" if vs == "timeout" else "native", timeout)]
                          + own_lines(own)))
            break
        # pathvm's own failures: 125 (an error of pathvm's), 123 (a deadlock).
        pathvm_failed = vs in (123, 125) and ns != vs and any(
            not l.startswith(b"pathvm: warning:") for l in own.splitlines())
        if pathvm_failed:
            diffs.append(("pathvm error", ["    %s: pathvm exited %s, native %s" % (label, vs, ns)] + own_lines(own)))
            continue
        if ns != vs:
            diffs.append(("status", ["    %s: native %s, pathvm %s" % (label, ns, vs)] + own_lines(own)))
        if no != vo:
            diffs.append(("stdout", ["    %s:" % label] + short_diff(no, vo) + own_lines(own)))
        if case.stderr and ne != ve:
            diffs.append(("stderr", ["    %s:" % label] + short_diff(ne, ve) + own_lines(own)))
    if not any(k == "timeout" for k, _ in diffs):
        for rel in sorted(set(nat_files) | set(vm_files)):
            a, b = nat_files.get(rel), vm_files.get(rel)
            if a == b:
                continue
            if a is None or b is None:
                diffs.append(("file", ["    %s: only %s" % (rel, "native" if b is None else "under pathvm")]))
            elif a[0] != b[0] or a[1] != b[1]:
                diffs.append(("file", ["    %s: native %s, pathvm %s" % (rel, a[:2], b[:2])]))
            else:
                diffs.append(("file", ["    %s:" % rel] + short_diff(a[2], b[2], 6)))
    if not keep:
        shutil.rmtree(base, ignore_errors=True)
    return {"name": case.name, "result": "identical" if not diffs else "different",
            "wall_seconds": round(time.monotonic() - t0, 2),
            "kinds": sorted({k for k, _ in diffs}), "diffs": diffs, "notes": notes,
            "dir": base if keep else None}


def own_lines(own, n=3):
    return ["    | " + l[:160] for l in own.decode("utf-8", "replace").splitlines()[:n]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", metavar="REGEX", help="run the cases whose name matches REGEX")
    ap.add_argument("--quick", action="store_true", help="only the quick subset (the test suite's)")
    ap.add_argument("--pathvm", default=os.path.join(ROOT, "target", "release", "pathvm"),
                    help="the pathvm binary (default: target/release/pathvm)")
    ap.add_argument("-j", type=int, default=1, metavar="N", help="cases run at once")
    ap.add_argument("--cpu", metavar="MODEL",
                    help="pathvm's CPU model (pathvm run --cpu MODEL; default: pathvm's)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    ap.add_argument("--timeout", type=int, default=STEP_TIMEOUT, help="seconds per step and side")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--keep", action="store_true", help="keep each case's directories (printed)")
    a = ap.parse_args()
    try:
        only = re.compile(a.only) if a.only else None
    except re.error as e:
        print("corpus: --only %s: %s" % (a.only, e), file=sys.stderr)
        return 2
    cases = [c for c in CASES if (not a.quick or c.quick) and (not only or only.search(c.name))]
    if a.list:
        for c in cases:
            print("%-22s %s%s" % (c.name, " ; ".join(" ".join(s.argv) for s in c.steps),
                                   "  [--trace-children]" if c.trace else ""))
        return 0
    if not cases:
        print("corpus: no case matches", file=sys.stderr)
        return 2
    if not (os.path.isfile(a.pathvm) and os.access(a.pathvm, os.X_OK)):
        print("corpus: %s is not an executable pathvm (build it: cargo build --release)" % a.pathvm,
              file=sys.stderr)
        return 2
    pathvm = os.path.abspath(a.pathvm)
    native_limits()
    inputs = tempfile.mkdtemp(prefix="pathvm-corpus-inputs-")
    try:
        gen_inputs(inputs)
        with concurrent.futures.ThreadPoolExecutor(max(1, a.j)) as ex:
            futures = [ex.submit(run_case, c, inputs, pathvm, a.timeout, a.keep, a.cpu) for c in cases]
            results = []
            for c, f in zip(cases, futures):
                r = f.result()
                results.append(r)
                report(r)
    finally:
        shutil.rmtree(inputs, ignore_errors=True)
    ran = [r for r in results if r["result"] != "skipped"]
    same = [r for r in ran if r["result"] == "identical"]
    skipped = [r for r in results if r["result"] == "skipped"]
    print("\n%d/%d identical%s" % (len(same), len(ran),
                                   ", %d skipped" % len(skipped) if skipped else ""))
    differ = [r["name"] for r in ran if r["result"] != "identical"]
    if differ:
        print("different: " + " ".join(differ))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{k: v for k, v in r.items() if k != "diffs"} for r in results], f, indent=1)
    return 0 if not differ else 1


def report(r):
    if r["result"] == "skipped":
        print("SKIP %s: %s" % (r["name"], r["why"]), flush=True)
        return
    if r["result"] == "identical":
        print("ok   %s" % r["name"] + ("" if not r["notes"] else "  (%s)" % "; ".join(r["notes"])), flush=True)
        return
    print("DIFF %s: %s" % (r["name"], ", ".join(r["kinds"])) + ("  [kept in %s]" % r["dir"] if r["dir"] else ""))
    for kind, lines in r["diffs"]:
        print("  %s" % kind)
        for l in lines:
            print(l)
    for n in r["notes"]:
        print("  note: " + n)
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
