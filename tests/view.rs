//! `pathvm view` in a real browser: headless Chromium (Debian's
//! `chromium`, installed by scripts/setup.sh) driven through the DevTools
//! protocol over a pipe (`--remote-debugging-pipe`: JSON messages ended by
//! a NUL byte on descriptors 3 and 4), so the test needs no WebSocket
//! client, no npm package and no Python. The page's numbers are checked
//! against `pathvm report`'s JSON; screenshots are kept in
//! `target/view-screenshots/` as artifacts.

use std::io::{BufRead, BufReader, Write};
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::*;

/// Where the page's file may grow to for a profile of a million contexts
/// (docs/view.md).
const MAX_PAGE_BYTES: u64 = 8 << 20;

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
}

fn screenshots() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("view-screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A headless Chromium and one page of it, over the DevTools pipe.
struct Browser {
    child: Child,
    to: std::fs::File,
    from: BufReader<std::fs::File>,
    next: u64,
    session: String,
    _profile_dir: PathBuf,
}

impl Browser {
    fn start(exe: &Path, scratch_dir: &Path) -> Browser {
        let mut to_child = [0; 2];
        let mut from_child = [0; 2];
        // SAFETY: pipe2 writes two descriptors into each array.
        unsafe {
            assert_eq!(libc::pipe2(to_child.as_mut_ptr(), libc::O_CLOEXEC), 0);
            assert_eq!(libc::pipe2(from_child.as_mut_ptr(), libc::O_CLOEXEC), 0);
        }
        let (child_in, child_out) = (to_child[0], from_child[1]);
        let profile_dir = scratch_dir.join("chromium-profile");
        let mut cmd = Command::new(exe);
        cmd.args([
            "--headless=new",
            "--remote-debugging-pipe",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--hide-scrollbars",
            "--window-size=1280,800",
        ])
        .arg(format!("--user-data-dir={}", profile_dir.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls between fork and exec: the
        // pipe ends moved to descriptors 3 and 4 (through high numbers,
        // so that neither overwrites the other).
        unsafe {
            cmd.pre_exec(move || {
                let a = libc::fcntl(child_in, libc::F_DUPFD_CLOEXEC, 100);
                let b = libc::fcntl(child_out, libc::F_DUPFD_CLOEXEC, 100);
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("start chromium");
        // SAFETY: the descriptors are ours; the child's ends are closed here.
        let (to, from) = unsafe {
            libc::close(child_in);
            libc::close(child_out);
            (
                std::fs::File::from_raw_fd(to_child[1]),
                std::fs::File::from_raw_fd(from_child[0]),
            )
        };
        let mut b = Browser {
            child,
            to,
            from: BufReader::new(from),
            next: 0,
            session: String::new(),
            _profile_dir: profile_dir,
        };
        let targets = b.call("Target.getTargets", json!({}));
        let page = targets["targetInfos"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .expect("a page target")["targetId"]
            .clone();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": page, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b.call("Page.enable", json!({}));
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}),
        );
        b
    }

    /// One DevTools command and its result (events in between are dropped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let mut msg = json!({"id": self.next, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).expect("write to chromium");
        loop {
            let mut buf = Vec::new();
            let n = self
                .from
                .read_until(0, &mut buf)
                .expect("read from chromium");
            assert!(n > 0, "chromium closed the pipe during {method}");
            buf.pop();
            let v: Value = serde_json::from_slice(&buf).expect("DevTools JSON");
            if v["id"] == json!(self.next) {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page (awaited).
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{expr}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Opens a file and waits for the page to say it is drawn; returns
    /// how long that took.
    fn open(&mut self, file: &Path) -> Duration {
        let url = format!("file://{}", file.canonicalize().unwrap().display());
        let t0 = Instant::now();
        self.call("Page.navigate", json!({"url": url}));
        while self.eval("!!(document.body && document.body.dataset.ready === '1')") != json!(true) {
            assert!(
                t0.elapsed() < Duration::from_secs(120),
                "{} never became ready",
                file.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        t0.elapsed()
    }

    /// A key pressed and released, as a user would.
    fn key(&mut self, key: &str) {
        let (code, vk, text) = match key {
            "ArrowDown" => ("ArrowDown", 40, ""),
            "ArrowUp" => ("ArrowUp", 38, ""),
            "ArrowRight" => ("ArrowRight", 39, ""),
            "ArrowLeft" => ("ArrowLeft", 37, ""),
            "Escape" => ("Escape", 27, ""),
            "Enter" => ("Enter", 13, "\r"),
            k => ("", k.chars().next().unwrap().to_ascii_uppercase() as u32, k),
        };
        let mut down = json!({"type": if text.is_empty() { "rawKeyDown" } else { "keyDown" },
            "key": key, "code": code, "windowsVirtualKeyCode": vk});
        if !text.is_empty() {
            down["text"] = json!(text);
        }
        self.call("Input.dispatchKeyEvent", down);
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk}),
        );
    }

    fn screenshot(&mut self, name: &str) {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64_decode(r["data"].as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
        let path = screenshots().join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        eprintln!("view: screenshot {}", path.display());
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Vec<u32> = chunk.iter().map(|&c| val(c) as u32).collect();
        let n = v
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &x)| n | x << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// `pathvm view FILES... -o OUT`, which must succeed; its stderr.
fn view(files: &[&Path], out: &Path) -> String {
    let mut args = vec![std::ffi::OsStr::new("view")];
    args.extend(files.iter().map(|f| f.as_os_str()));
    args.extend([std::ffi::OsStr::new("-o"), out.as_os_str()]);
    String::from_utf8_lossy(&pathvm_ok(args).stderr).into_owned()
}

/// `1,234,567`, as the page writes numbers.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn function_row<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["function"] == name)
        .unwrap_or_else(|| panic!("no row for {name}"))
}

#[test]
fn the_page_shows_the_tree_the_flame_graph_paths_on_source_and_a_comparison() {
    let Some(exe) = chromium() else {
        eprintln!("skipped: chromium not installed (scripts/setup.sh installs Debian's chromium)");
        return;
    };
    let dir = scratch("view");
    let profile = dir.join("sweep.out");
    let o = run_pathvm(&profile, &guest("sweep-O2"), &[]);
    assert!(o.status.success());
    let page = dir.join("sweep.html");
    let notes = view(&[&profile], &page);
    assert!(notes.contains("pathvm: wrote "), "{notes}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "the page needs nothing from a network"
    );

    let mut b = Browser::start(&exe, &dir);
    let took = b.open(&page);
    eprintln!(
        "view: sweep page ({} bytes) ready in {:.2} s",
        html.len(),
        took.as_secs_f64()
    );
    b.screenshot("summary");

    // The tree: walk's inclusive instructions as `report` has them.
    let report = report_json(&profile, &[]);
    let walk_incl = function_row(&report, "walk")["inclusive"]["instructions"]
        .as_u64()
        .unwrap();
    b.key("2");
    let walk_row = b.eval(
        "[...document.querySelectorAll('#ctx-tree .row[role=treeitem]')]\
         .filter(r => r.querySelector('.name [title]').title === 'walk')\
         .map(r => r.children[1].textContent)",
    );
    assert_eq!(
        walk_row,
        json!([thousands(walk_incl)]),
        "walk's row in the tree"
    );
    // Expanding: a collapsed node with children opens on a click and
    // shows them.
    let before = b.eval("document.querySelectorAll('#ctx-tree .row[role=treeitem]').length");
    let opened = b.eval(
        "(() => { const r = document.querySelector('#ctx-tree .row[aria-expanded=false]');\
          if (!r) return null; const n = r.dataset.node; r.click();\
          return document.querySelector(`#ctx-tree .row[data-node=\"${n}\"]`).getAttribute('aria-expanded'); })()",
    );
    assert_eq!(opened, json!("true"), "a collapsed node opened");
    let after = b.eval("document.querySelectorAll('#ctx-tree .row[role=treeitem]').length");
    assert!(
        after.as_u64() > before.as_u64(),
        "{before} rows, then {after}"
    );
    // The keyboard: down to the next row, and Left closes an open node.
    b.key("ArrowDown");
    b.screenshot("tree");

    // The flame graph: a click on walk zooms on it.
    b.key("3");
    let frames = b.eval("document.querySelectorAll('#flame div[data-node]').length");
    assert!(frames.as_u64().unwrap() > 5, "{frames} frames");
    b.screenshot("flame");
    b.eval(
        "[...document.querySelectorAll('#flame div[data-node]')]\
         .find(d => d.title.startsWith('walk\\n')).click()",
    );
    let bar = b.eval("document.querySelector('.flamebar').textContent");
    assert!(
        bar.as_str()
            .unwrap()
            .contains(&format!("zoomed on walk: {}", thousands(walk_incl))),
        "{bar}"
    );
    b.key("Escape");

    // Paths: walk's hottest path by instructions, drawn on sweep.c.
    let by_insns = report_json(
        &profile,
        &[
            "--by",
            "path",
            "--function",
            "walk",
            "--metric",
            "instructions",
        ],
    );
    let hottest = by_insns["rows"][0]["path"].as_u64().unwrap();
    b.key("5");
    b.eval(
        "[...document.querySelectorAll('#path-functions .row')]\
         .find(r => r.querySelector('[title]').title === 'walk').click()",
    );
    let shown = b.eval("document.querySelector('#paths-table tr.sel').dataset.id");
    assert_eq!(
        shown,
        json!(hottest.to_string()),
        "the first path is the hottest"
    );
    let highlighted = b.eval(
        "[...document.querySelectorAll('#code .src-line.on-path')].map(l => Number(l.dataset.line))",
    );
    let (lines, addrs) = path_lines(&profile, hottest);
    assert_eq!(highlighted, json!(lines), "path #{hottest}'s lines");
    b.screenshot("path-on-source");
    // The same path on the disassembly: its instructions.
    b.key("d");
    let highlighted = b.eval(
        "[...new Set([...document.querySelectorAll('#code .insn.on-path')].map(l => l.dataset.addr))].sort()",
    );
    assert_eq!(highlighted, json!(addrs), "path #{hottest}'s instructions");
    b.screenshot("path-on-disassembly");
    b.key("d");

    // The metric l1d-miss: walk's hottest path is the dense sweeping one.
    b.eval(
        "(() => { const s = document.getElementById('metric');\
          s.value = String([...s.options].find(o => o.text === 'l1d-miss').value);\
          s.dispatchEvent(new Event('change')); })()",
    );
    let by_miss = report_json(
        &profile,
        &["--by", "path", "--function", "walk", "--metric", "l1d-miss"],
    );
    let top = &by_miss["rows"][0];
    let shown = b.eval(
        "(() => { const r = document.querySelector('#paths-table tbody tr');\
          return [r.dataset.id, r.querySelector('.cls').textContent, r.children[3].textContent]; })()",
    );
    assert_eq!(
        shown,
        json!([
            top["path"].as_u64().unwrap().to_string(),
            top["class"],
            thousands(top["cost"]["l1d-miss"].as_u64().unwrap())
        ])
    );
    let highlighted = b.eval(
        "[...document.querySelectorAll('#code .src-line.on-path')].map(l => Number(l.dataset.line))",
    );
    let src = std::fs::read_to_string(repo().join("guest-programs/sweep.c")).unwrap();
    let sweep_line = src.lines().position(|l| l.contains("/* SWEEP */")).unwrap() + 1;
    assert!(
        highlighted.as_array().unwrap().contains(&json!(sweep_line)),
        "{highlighted} holds the sweeping line {sweep_line}"
    );
    // The costs beside the source are `report --by line`'s, every metric
    // on its line: the sweeping line's misses.
    let by_line = report_json(&profile, &["--by", "line", "--metric", "l1d-miss"]);
    let want = by_line["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["file"].as_str().unwrap().ends_with("sweep.c") && r["line"] == json!(sweep_line)
        })
        .map(|r| r["cost"]["l1d-miss"].as_u64().unwrap())
        .unwrap();
    assert!(want > 0);
    let shown = b.eval(&format!(
        "document.querySelector('#code .src-line[data-line=\"{sweep_line}\"] .cost').textContent"
    ));
    assert_eq!(
        shown,
        json!(thousands(want)),
        "line {sweep_line}'s l1d-miss"
    );
    b.screenshot("path-l1d-miss");
    // And beside each instruction, `report --by instruction`'s.
    b.key("d");
    let by_insn = report_json(&profile, &["--by", "instruction", "--metric", "l1d-miss"]);
    let of_insn: std::collections::HashMap<String, u64> = by_insn["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["address"].as_str().unwrap().to_string(),
                r["cost"]["l1d-miss"].as_u64().unwrap(),
            )
        })
        .collect();
    let shown = b.eval(
        "[...document.querySelectorAll('#code .insn')].map(l => [l.dataset.addr, l.querySelector('.cost').textContent])",
    );
    let shown = shown.as_array().unwrap();
    assert!(!shown.is_empty());
    let mut with_misses = 0;
    for row in shown {
        let (addr, text) = (row[0].as_str().unwrap(), row[1].as_str().unwrap());
        let want = of_insn.get(addr).copied().unwrap_or(0);
        let want = if want == 0 {
            String::new()
        } else {
            thousands(want)
        };
        assert_eq!(text, want, "l1d-miss of the instruction at {addr}");
        with_misses += usize::from(!text.is_empty());
    }
    assert!(with_misses > 0, "some of walk's instructions miss");
    b.key("d");
    b.key("t");
    b.screenshot("path-l1d-miss-dark");
    b.key("t");

    // The comparison of two versions of a program.
    let old = dir.join("old.out");
    let new = dir.join("new.out");
    assert!(run_pathvm(&old, &guest("diffwork-O2"), &[])
        .status
        .success());
    assert!(run_pathvm(&new, &guests().join("more/diffwork-O2"), &[])
        .status
        .success());
    let cmp = dir.join("cmp.html");
    view(&[&old, &new], &cmp);
    b.open(&cmp);
    b.key("6");
    let heavy = |p: &Path| {
        function_row(&report_json(p, &[]), "heavy")["self"]["instructions"]
            .as_u64()
            .unwrap()
    };
    let (o, n) = (heavy(&old), heavy(&new));
    assert!(n > o);
    let row = b.eval(
        "(() => { const r = [...document.querySelectorAll('#compare-functions tbody tr')]\
          .find(r => r.querySelector('[title]').title === 'heavy');\
          return [r.children[1].textContent, r.children[2].textContent, r.children[3].textContent,\
                  r.children[3].className]; })()",
    );
    assert_eq!(
        row,
        json!([
            thousands(o),
            thousands(n),
            format!("+{}", thousands(n - o)),
            "num up"
        ])
    );
    // heavy's loop path, matched by its route though the builds differ:
    // its count grew by heavy's 1,000 more iterations.
    let top = |p: &Path| {
        let r = report_json(p, &["--by", "path", "--function", "heavy"]);
        let row = r["rows"][0].clone();
        (
            row["path"].as_u64().unwrap(),
            row["count"].as_u64().unwrap(),
        )
    };
    let ((oid, oc), (nid, nc)) = (top(&old), top(&new));
    assert_eq!(nc - oc, 1000);
    let row = b.eval(
        "(() => { const r = [...document.querySelectorAll('#compare-paths tbody tr')]\
          .find(r => r.querySelector('[title]').title === 'heavy');\
          return [r.dataset.old, r.dataset.new, r.children[2].textContent, r.children[3].textContent,\
                  r.children[4].textContent, r.children[4].className]; })()",
    );
    assert_eq!(
        row,
        json!([
            oid.to_string(),
            nid.to_string(),
            thousands(oc),
            thousands(nc),
            "+1,000",
            "num up"
        ])
    );
    b.eval("document.getElementById('compare-paths').scrollIntoView()");
    b.screenshot("comparison-paths");
}

/// The source lines and the instruction addresses of path `id` of walk,
/// from `report --annotate`, sorted.
fn path_lines(profile: &Path, id: u64) -> (Vec<u64>, Vec<String>) {
    let j = report_json(
        profile,
        &[
            "--by",
            "path",
            "--function",
            "walk",
            "--annotate",
            "--path",
            &id.to_string(),
        ],
    );
    let mut lines: Vec<u64> = j[0]["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["line"].as_str()?.strip_prefix("sweep.c:")?.parse().ok())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    let mut addrs: Vec<String> = j[0]["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["address"].as_str().unwrap().to_string())
        .collect();
    addrs.sort();
    addrs.dedup();
    (lines, addrs)
}

#[test]
fn a_million_contexts_make_a_bounded_page_that_opens() {
    let Some(exe) = chromium() else {
        eprintln!("skipped: chromium not installed (scripts/setup.sh installs Debian's chromium)");
        return;
    };
    let dir = scratch("view_million");
    let profile = dir.join("many.out");
    // Depth 19: 2^20 - 2 = 1,048,574 contexts below main.
    let o = run_with(
        &profile,
        &["--max-contexts", "2000000"],
        &guest("manyctx-O2"),
        &["19"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "calls 1048574\n");
    let p = reports::read_profile(&profile).unwrap();
    assert!(
        p.contexts.len() > 1_048_574,
        "{} contexts",
        p.contexts.len()
    );
    let page = dir.join("many.html");
    let notes = view(&[&profile], &page);
    assert!(
        notes.contains("colder ones folded into `(cut)` nodes"),
        "{notes}"
    );
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < MAX_PAGE_BYTES, "{size} bytes");
    let mut b = Browser::start(&exe, &dir);
    let took = b.open(&page);
    b.key("2");
    let rows = b.eval("document.querySelectorAll('#ctx-tree .row[role=treeitem]').length");
    b.key("3");
    let frames = b.eval("document.querySelectorAll('#flame div[data-node]').length");
    eprintln!(
        "view: {} contexts: a page of {size} bytes ({:.1} MB), ready in {:.2} s in headless Chromium; \
         {rows} tree rows open, {frames} flame frames",
        p.contexts.len(),
        size as f64 / 1e6,
        took.as_secs_f64()
    );
    b.screenshot("million-flame");
}

#[test]
fn bad_input_to_view_is_one_line_and_status_2() {
    let dir = scratch("view_bad");
    let bad = dir.join("bad.out");
    std::fs::write(&bad, b"not a profile at all").unwrap();
    let good = dir.join("hello.out");
    // hello exits with a status of its own; its profile is what counts.
    run_pathvm(&good, &guest("hello-O2"), &[]);
    assert!(good.exists());
    let cases: Vec<(Vec<PathBuf>, PathBuf, &str)> = vec![
        (
            vec![bad.clone()],
            dir.join("a.html"),
            "bad.out: not a pathvm profile",
        ),
        (
            vec![good.clone(), bad.clone()],
            dir.join("b.html"),
            "bad.out: not a pathvm profile",
        ),
        (
            vec![dir.join("missing.out")],
            dir.join("c.html"),
            "missing.out: no such profile file",
        ),
        (
            vec![good.clone()],
            dir.join("no/such/dir/d.html"),
            "d.html: No such file or directory",
        ),
    ];
    for (files, out, what) in cases {
        let o = Command::new(pathvm())
            .arg("view")
            .args(&files)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{files:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("pathvm: ") && stderr.contains(what),
            "{stderr}"
        );
        assert!(!out.exists());
    }
}

/// Every guest program's page (each run cut at 5 M instructions: the
/// profile of what ran is a profile like any other), and gzip's and
/// sqlite3's where the machine has them, open in headless Chromium with
/// the network off: each becomes ready, every tab draws, and no script
/// error is thrown.
#[test]
fn every_guest_program_gzip_and_sqlite3_make_pages_that_open_offline() {
    let Some(exe) = chromium() else {
        eprintln!("skipped: chromium not installed (scripts/setup.sh installs Debian's chromium)");
        return;
    };
    let dir = scratch("view_all");
    let limit = ["--max-instructions", "5000000"];
    let mut profiles: Vec<(String, PathBuf)> = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(guests())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("-O2"))
        .collect();
    names.sort();
    assert!(names.len() > 30, "{names:?}");
    for name in names {
        let profile = dir.join(format!("{name}.out"));
        run_with(&profile, &limit, &guest(&name), &[]);
        assert!(profile.exists(), "{name} left no profile");
        profiles.push((name, profile));
    }
    let text = dir.join("text");
    std::fs::copy(repo().join("ARCHITECTURE.md"), &text).unwrap();
    let real: [(&str, &[&str]); 2] = [
        ("gzip", &["-9", "-c", text.to_str().unwrap()]),
        (
            "sqlite3",
            &[
                ":memory:",
                "create table t(a, b); insert into t select value, value * value \
                 from generate_series(1, 2000); select sum(b) from t where a % 7 = 3;",
            ],
        ),
    ];
    for (prog, args) in real {
        let Some(path) = which(prog) else {
            eprintln!("skipped {prog}: not installed");
            continue;
        };
        let profile = dir.join(format!("{prog}.out"));
        let o = run_with(&profile, &[], &path, args);
        assert!(
            o.status.success(),
            "{prog}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        profiles.push((prog.to_string(), profile));
    }
    let mut b = Browser::start(&exe, &dir);
    b.call("Network.enable", json!({}));
    b.call(
        "Network.emulateNetworkConditions",
        json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
    );
    b.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": "window.__errors = []; \
            addEventListener('error', e => __errors.push(String(e.message))); \
            addEventListener('unhandledrejection', e => __errors.push(String(e.reason)));"}),
    );
    let mut slowest = (String::new(), Duration::ZERO);
    for (name, profile) in &profiles {
        let page = dir.join(format!("{name}.html"));
        view(&[profile], &page);
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "{name}: the page needs nothing from a network"
        );
        let took = b.open(&page);
        if took > slowest.1 {
            slowest = (name.clone(), took);
        }
        for tab in ["1", "2", "3", "4", "5", "6"] {
            b.key(tab);
        }
        assert_eq!(b.eval("window.__errors"), json!([]), "{name}");
        let title = b.eval("document.title");
        assert!(
            title.as_str().is_some_and(|t| !t.is_empty()),
            "{name}: {title}"
        );
    }
    eprintln!(
        "view: {} pages opened offline; the slowest, {}, ready in {:.2} s",
        profiles.len(),
        slowest.0,
        slowest.1.as_secs_f64()
    );
}
