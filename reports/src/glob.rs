//! Glob patterns on function names, for `--focus` and `--path-contains`.

/// True when `name` matches `pattern` as a whole. `*` matches any run of
/// characters (also none), `?` exactly one character; every other
/// character, `[` and `]` included (C++ names have `operator[]`), matches
/// itself.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Iterative matching with one backtrack point: the last `*` seen.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || (p[pi] != '*' && p[pi] == n[ni])) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs() {
        assert!(glob_match("main", "main"));
        assert!(!glob_match("main", "main2"));
        assert!(glob_match("ma*", "main"));
        assert!(glob_match("*", ""));
        assert!(glob_match("*in", "main"));
        assert!(glob_match("m?in", "main"));
        assert!(!glob_match("m?in", "min"));
        assert!(glob_match(
            "*::push_back*",
            "std::vector<int>::push_back(int const&)"
        ));
        assert!(glob_match("operator[]", "operator[]"));
        assert!(glob_match("a*b*c", "axxbyyc"));
        assert!(!glob_match("a*b*c", "axxbyy"));
        assert!(glob_match("**a", "ba"));
    }
}
