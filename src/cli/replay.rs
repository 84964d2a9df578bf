//! `yogar replay FILE WITNESS [--32|--64]`: validate a violation witness (GraphML 1.0 or YAML
//! 2.x) by running the program concretely, guided by the witness, until a run reaches the
//! violation — for a YAML witness, the one its target waypoints name (thread and line).

use super::{DataModel, ReplayArgs};
use crate::exit;
use crate::explore::{
    check_waypoints, is_yaml, parse_witness, parse_yaml_witness, replay, Limits, ReplayResult,
};
use crate::frontend;
use crate::svcomp::Property;

/// Exit code when the witness is not confirmed.
const NOT_CONFIRMED: u8 = 1;

pub fn run(args: &ReplayArgs) -> u8 {
    let text = match std::fs::read_to_string(&args.witness) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("yogar: cannot read {}: {e}", args.witness.display());
            return exit::INPUT;
        }
    };
    let parsed = if is_yaml(&text) {
        parse_yaml_witness(&text)
    } else {
        parse_witness(&text)
    };
    let witness = match parsed {
        Ok(e) => e,
        Err(e) => {
            eprintln!("yogar: bad witness {}: {e}", args.witness.display());
            return exit::INPUT;
        }
    };
    // Without a flag, the witness's own architecture decides.
    let data_model = if args.ilp32 || args.lp64 {
        args.data_model()
    } else if witness.architecture.as_deref() == Some("32bit") {
        DataModel::Ilp32
    } else {
        DataModel::Lp64
    };
    let model = data_model;
    let prog = match frontend::load_with(&args.file, model, &args.frontend.options()) {
        Ok(p) => p,
        // A program the frontend refuses cannot be replayed: an input problem here.
        Err(e @ frontend::LoadError::Frontend(_)) => {
            eprintln!("yogar: {e}");
            return exit::INPUT;
        }
        Err(e) => {
            eprintln!("yogar: {e}");
            return e.exit_code();
        }
    };
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        eprintln!("yogar: error: --timeout must be a positive number of seconds");
        return exit::USAGE;
    }
    let property = witness
        .specification
        .as_deref()
        .map_or(Property::UnreachCall, Property::parse);
    match property {
        Property::UnreachCall
        | Property::NoDataRace
        | Property::NoOverflow
        | Property::ValidMemsafety => {}
        _ => {
            println!(
                "witness not confirmed: its specification is not one replay checks ({})",
                property.specification()
            );
            return NOT_CONFIRMED;
        }
    }
    if !witness.targets.is_empty() {
        let race = property == Property::NoDataRace;
        if race != (witness.targets.len() == 2) {
            println!(
                "witness not confirmed: {} target(s) under {}",
                witness.targets.len(),
                property.specification()
            );
            return NOT_CONFIRMED;
        }
        if let Err(why) = check_waypoints(&prog, &witness) {
            println!("witness not confirmed: {why}");
            return NOT_CONFIRMED;
        }
    }
    let limits = Limits {
        max_steps: args.max_steps,
        timeout: std::time::Duration::from_secs_f64(args.timeout),
        race: property == Property::NoDataRace,
        overflow: property == Property::NoOverflow,
        memsafety: property == Property::ValidMemsafety,
        mem_kind: witness.mem_kind,
        targets: witness
            .targets
            .iter()
            .map(|&(t, l)| (t as usize, l))
            .collect(),
        ..Limits::default()
    };
    match replay(&prog, &witness.edges, &limits) {
        ReplayResult::Confirmed {
            thread,
            loc,
            violation,
            runs,
            steps,
        } => {
            let what = if limits.overflow {
                "signed overflow".to_string()
            } else if limits.memsafety {
                format!("memory-safety violation ({})", violation.name())
            } else {
                "violation".to_string()
            };
            println!(
                "witness confirmed: {what} reached at {} in thread {thread}",
                prog.loc_str(loc)
            );
            eprintln!("replay: {runs} runs before the confirming one, {steps} steps");
            exit::TRUE
        }
        ReplayResult::RaceConfirmed { race, runs, steps } => {
            println!(
                "witness confirmed: data race between thread {} at {} and thread {} at {}",
                race.first.0,
                prog.loc_str(race.first.1),
                race.second.0,
                prog.loc_str(race.second.1)
            );
            eprintln!("replay: {runs} runs before the confirming one, {steps} steps");
            exit::TRUE
        }
        ReplayResult::NotConfirmed(why) => {
            println!("witness not confirmed: {why}");
            NOT_CONFIRMED
        }
    }
}
