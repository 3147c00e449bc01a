use clap::Parser;
#[derive(Parser)]
struct Cli { program: std::path::PathBuf, args: Vec<std::ffi::OsString> }
fn main() {
    let cli = Cli::parse();
    let mut argv = vec![cli.program.clone().into_os_string()];
    argv.extend(cli.args);
    let cfg = vm::VmConfig { program: cli.program, argv, env: vec!["PATH=/usr/bin:/bin".into(), "LANG=C".into()], seed: 0, max_instructions: None, strict_syscalls: false };
    let t = std::time::Instant::now();
    match vm::run(&cfg, &mut ()) {
        Ok(o) => eprintln!("stop {:?} insns {} rep {} blocks {} in {:?}", o.stop, o.instructions, o.rep_iterations, o.blocks.len(), t.elapsed()),
        Err(e) => eprintln!("error: {e}"),
    }
}
