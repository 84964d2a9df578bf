//! Every task listed in the shared sv-benchmarks `tasks.csv` parses, names an input file that
//! exists, and carries the unreach-call verdict the table states.

use yogar::svcomp::{Property, Request, Task};

#[test]
fn every_listed_task_parses_with_its_expected_verdict() {
    let Some(svb) = yogar::svcomp::sv_benchmarks(None) else {
        println!("skipped: no sv-benchmarks checkout (set SVB or provide ../shared/sv-benchmarks)");
        return;
    };
    let listed = yogar::svcomp::read_task_list(&svb).unwrap_or_else(|e| panic!("{e}"));

    let mut checked = 0;
    let (mut trues, mut falses) = (0, 0);
    for row in &listed {
        let yml = &row.yml_path;
        let task = Task::load(yml).unwrap_or_else(|e| panic!("{e}"));
        let input = task.single_input().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            input.is_file(),
            "{}: input {} missing",
            yml.display(),
            input.display()
        );
        assert_eq!(
            input.canonicalize().unwrap(),
            row.input.canonicalize().unwrap(),
            "{}",
            yml.display()
        );
        let unreach = task
            .unreach_call()
            .unwrap_or_else(|| panic!("{}: no unreach-call property", yml.display()));
        assert_eq!(unreach.property, Some(Property::UnreachCall));
        let expected = row
            .expected
            .unwrap_or_else(|| panic!("tasks.csv: no verdict for {}", row.yml));
        assert_eq!(
            unreach.expected_verdict,
            Some(expected),
            "{}",
            yml.display()
        );
        // What `yogar verify TASK.yml` will be asked.
        let request = Request::resolve(yml, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(request.program, input);
        assert_eq!(request.property, Property::UnreachCall);
        assert_eq!(request.expected_verdict, Some(expected));
        assert_eq!(
            request.data_model, None,
            "format 1.0 tasks state no data model"
        );
        if expected {
            trues += 1;
        } else {
            falses += 1;
        }
        checked += 1;
    }
    println!("checked {checked} tasks ({trues} true, {falses} false)");
    assert_eq!(
        checked,
        // Every row of the table, none lost by the reader.
        std::fs::read_to_string(svb.join("tasks.csv"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count()
            - 1
    );
    assert!(checked > 0);
}
