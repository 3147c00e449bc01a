//! `cputest [--class C] [--cases N] [--seed S]`: the differential tester's
//! command line (see docs/cpu.md). Exit status 0 when every mismatch is a
//! known divergence, 1 otherwise, 2 for bad arguments.

use clap::Parser;

#[derive(Parser)]
#[command(about = "Compare the VM's CPU with the host CPU, instruction by instruction")]
struct Args {
    /// Only this class (see --list).
    #[arg(long)]
    class: Vec<String>,
    /// Only this mnemonic (iced-x86's name, e.g. Cmpxchg).
    #[arg(long)]
    mnemonic: Option<String>,
    /// Cases per class.
    #[arg(long, default_value_t = 10_000)]
    cases: u64,
    /// The first case's index (with --cases 1, reproduces one case).
    #[arg(long, default_value_t = 0)]
    first: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mismatches printed in full per class.
    #[arg(long, default_value_t = 20)]
    show: usize,
    /// List the classes and whether each runs here.
    #[arg(long)]
    list: bool,
    /// The VM's CPU model (x86-64-v2 advertises no AVX classes).
    #[arg(long, default_value_t = vm::cpu::CpuModel::X86_64V3)]
    cpu: vm::cpu::CpuModel,
}

fn main() {
    let args = Args::parse();
    let mut emu = match cputest::emu::Emu::new(args.cpu) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cputest: {e}");
            std::process::exit(2);
        }
    };
    for c in &args.class {
        if !cputest::gen::CLASSES.iter().any(|k| k.name == c) {
            eprintln!("cputest: no class {c:?} (try --list)");
            std::process::exit(2);
        }
    }
    if !args.list && !cputest::host_keeps_x87_pointers() {
        println!(
            "x87 FOP, FIP and FDP not compared: this host keeps them otherwise than the virtual CPU (docs/cpu.md)"
        );
    }
    let mut unknown = 0u64;
    for class in cputest::gen::CLASSES {
        if !args.class.is_empty() && !args.class.iter().any(|c| c == class.name) {
            continue;
        }
        if let Err(why) = cputest::class_status(&mut emu, class) {
            println!("{:<10} skipped: {why}", class.name);
            continue;
        }
        if args.list {
            println!(
                "{:<10} runs ({} instruction forms)",
                class.name,
                cputest::gen::codes(class).len()
            );
            continue;
        }
        let run = match cputest::run_class(
            &mut emu,
            class,
            args.mnemonic.as_deref(),
            args.seed,
            args.first,
            args.cases,
            args.show,
        ) {
            Ok(r) => r,
            Err(e) => {
                println!("{:<10} {e}", class.name);
                continue;
            }
        };
        for m in &run.examples {
            print!("{}", m.report());
        }
        for e in run.errors.iter().take(10) {
            println!("ERROR {}: {e}", class.name);
        }
        println!(
            "{:<10} {} cases, {} mismatches ({} not known), {} errors{}",
            class.name,
            run.cases,
            run.mismatched(),
            run.unknown(),
            run.errors.len(),
            run.by_mnemonic
                .iter()
                .map(|(m, (n, k, f))| format!(
                    " {m}:{n}{}[{}]",
                    if *k { "(known)" } else { "" },
                    f.iter().copied().collect::<Vec<_>>().join(",")
                ))
                .collect::<String>()
        );
        unknown += run.unknown() + run.errors.len() as u64;
    }
    std::process::exit(if unknown == 0 { 0 } else { 1 });
}
