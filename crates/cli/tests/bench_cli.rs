//! `slicewise bench`: the shape of `--json --many` output and the files `--save` writes (one
//! file per CPU, one section per benchmark target).
//! Speed is never checked here, only that every expected row was measured and is a positive
//! finite number.

use serde_json::Value;

mod common;

/// A tiny run: one size, three samples of 4 KiB.
fn bench(extra: &[&str]) -> std::process::Output {
    let mut cmd = common::slicewise();
    cmd.args(["bench", "groestl", "--sizes", "64", "--samples", "3", "--bytes-per-sample", "4KiB", "--backend", "portable"]);
    cmd.args(extra);
    cmd.env_remove("SLICEWISE_BACKEND");
    let out = cmd.output().expect("run slicewise");
    assert!(out.status.success(), "slicewise {extra:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn positive(v: &Value) -> bool {
    v.as_f64().is_some_and(|x| x.is_finite() && x > 0.0)
}

#[test]
fn json_many_has_one_shot_many_and_groestlcoin_rows() {
    let out = bench(&["--json", "--many"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(j["target"], "groestl");
    assert!(j["unit"].as_str().unwrap().ends_with("per byte"), "{}", j["unit"]);
    assert!(j["statistic"].as_str().unwrap().contains("3 samples"), "{}", j["statistic"]);
    assert!(j["cpu"]["model"].is_string() && j["cpu"]["class"].is_string(), "{}", j["cpu"]);
    let results = j["results"].as_array().expect("results array");

    let find = |alg: &str, imp: &str| -> &Value {
        results
            .iter()
            .find(|c| c["algorithm"] == alg && c["implementation"] == imp)
            .unwrap_or_else(|| panic!("no row {alg} / {imp} in {results:#?}"))
    };
    // `groestl-aesni` (AES-NI intrinsics) is a comparison row on x86-64 only.
    let aesni = cfg!(target_arch = "x86_64");
    for alg in ["groestl-256", "groestl-512"] {
        for imp in ["portable", "portable (hash_many ×256)", "rustcrypto-groestl", "groestl-aesni"] {
            if imp == "groestl-aesni" && !aesni {
                assert!(results.iter().all(|c| c["implementation"] != imp), "{imp} row off x86-64");
                continue;
            }
            let c = find(alg, imp);
            assert_eq!(c["bytes"], 64, "{c}");
            assert!(positive(&c["cycles_per_byte"]), "{c}");
            assert!(c.get("cycles_per_header").is_none(), "{c}");
        }
        assert_eq!(find(alg, "portable")["constant_time"], true);
        assert_eq!(find(alg, "portable (hash_many ×256)")["constant_time"], true);
        assert!(!aesni || find(alg, "groestl-aesni")["constant_time"].is_null());
    }
    for imp in ["portable (groestlcoin_hash_many ×256)", "rustcrypto-groestl (one by one)"] {
        let c = find("groestlcoin", imp);
        assert_eq!(c["bytes"], 80, "{c}");
        let (cpb, per_header) = (c["cycles_per_byte"].as_f64().unwrap(), c["cycles_per_header"].as_f64().unwrap());
        assert!(cpb > 0.0 && cpb.is_finite(), "{c}");
        assert!((per_header - 80.0 * cpb).abs() <= 1e-6 * per_header, "{c}");
    }
    // 2 sizes × (one-shot + hash_many + 2 comparisons) + 2 Groestlcoin rows, nothing else.
    assert_eq!(results.len(), 2 * (3 + usize::from(aesni)) + 2, "{results:#?}");
    for c in results {
        let keys: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
        for k in ["algorithm", "implementation", "constant_time", "bytes", "cycles_per_byte"] {
            assert!(keys.contains(&k), "{k} missing in {c}");
        }
    }
}

#[test]
fn without_many_there_are_no_multi_buffer_rows() {
    let out = bench(&["--json", "--no-compare", "--algorithms", "groestl-256"]);
    let j: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let results = j["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:#?}");
    assert_eq!(results[0]["implementation"], "portable");
    assert!(positive(&results[0]["cycles_per_byte"]));
}

/// The names of the files in `dir`, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

#[test]
fn save_writes_the_cpu_file_with_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("out");
    let out = bench(&["--many", "--no-compare", "--algorithms", "groestl-256", "--save", save.to_str().unwrap()]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("| portable (hash_many ×256) | yes |"), "{table}");
    assert!(table.contains("| 80 B | per header |"), "{table}");
    assert!(table.starts_with("CPU: ") && table.lines().next().unwrap().contains("family"), "the table names its CPU: {table}");

    let files = names(&save);
    let md_name = files.iter().find(|n| n.ends_with(".md")).expect("a Markdown file").clone();
    let slug = md_name.trim_end_matches(".md");
    assert!(slug.split('-').count() >= 2 && !slug.contains(' '), "{slug}");
    // One file per CPU, with its JSON and a plot per kind of row, all named by the CPU.
    let expected: Vec<String> = ["-groestl-256-hash_many.svg", "-groestl-256.svg", "-groestl.json", ".md", "-groestlcoin-groestlcoin_hash_many.svg"]
        .iter()
        .map(|s| format!("{slug}{s}"))
        .collect();
    let mut expected_sorted = expected.clone();
    expected_sorted.sort();
    assert_eq!(files, expected_sorted);

    let md = std::fs::read_to_string(save.join(&md_name)).unwrap();
    assert!(md.contains("<!-- bench: groestl -->") && md.contains("<!-- /bench: groestl -->"), "{md}");
    // The machine header, the exact command and the date.
    for item in ["- CPU: ", "family", "- features: ", "- logical CPUs: ", "- OS: ", "- compiler: rustc", "- source: ", " UTC:"] {
        assert!(md.contains(item), "{item} missing in {md}");
    }
    assert!(md.contains(&format!("{} bench groestl --sizes 64 --samples 3 --bytes-per-sample 4KiB --backend portable --many", common::BIN)), "{md}");
    assert!(md.contains("- statistic: median of 3 samples"), "{md}");
    // The tables of the run, as printed (after the CPU line).
    let tables = table.split_once('\n').unwrap().1;
    assert!(md.contains(tables), "the printed tables are in the file:\n{md}");
    for svg in &expected[..2] {
        assert!(md.contains(&format!("[{svg}]({svg})")), "{svg} not linked in {md}");
        let text = std::fs::read_to_string(save.join(svg)).unwrap();
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"), "{svg}");
        assert!(text.contains("portable"), "{svg} has no series");
    }
    let json: Value = serde_json::from_str(&std::fs::read_to_string(save.join(format!("{slug}-groestl.json"))).unwrap()).unwrap();
    assert_eq!(json["results"].as_array().unwrap().len(), 3);
    assert_eq!(json["cpu"]["slug"], slug);
    assert!(json["command"].as_str().unwrap().contains("--many"), "{}", json["command"]);
}

/// A Prøst run into the same directory adds its section to the CPU file and keeps Grøstl's; a
/// second Grøstl run replaces Grøstl's section.
#[test]
fn save_keeps_the_sections_of_other_targets() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().to_str().unwrap();
    bench(&["--no-compare", "--algorithms", "groestl-512", "--save", save]);
    let md_name = names(dir.path()).into_iter().find(|n| n.ends_with(".md")).unwrap();
    let md_path = dir.path().join(&md_name);
    let first = std::fs::read_to_string(&md_path).unwrap();
    let groestl_section = |text: &str| -> String {
        let start = text.find("<!-- bench: groestl -->").expect("groestl section");
        let end = text.find("<!-- /bench: groestl -->").expect("end of the groestl section");
        text[start..end].to_string()
    };

    let out = common::slicewise()
        .args(["bench", "proest", "--algorithms", "proest128-otr", "--sizes", "64", "--samples", "3"])
        .args(["--bytes-per-sample", "1KiB", "--backend", "portable", "--encrypt-only", "--save", save])
        .env_remove("SLICEWISE_BACKEND")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let second = std::fs::read_to_string(&md_path).unwrap();
    assert_eq!(groestl_section(&second), groestl_section(&first), "the Grøstl section is kept as it was");
    assert!(second.contains("<!-- bench: proest -->") && second.contains("<!-- /bench: proest -->"), "{second}");
    assert!(second.contains("proest128otrv1 encrypt, median"), "{second}");
    assert!(second.contains("One permutation call") && second.contains("| portable |"), "{second}");
    assert!(second.contains("bench proest --algorithms proest128-otr"), "{second}");
    assert!(names(dir.path()).iter().any(|n| n.ends_with("-proest.json")));

    // Grøstl again, another algorithm: its section is replaced, Prøst's kept.
    bench(&["--no-compare", "--algorithms", "groestl-256", "--save", save]);
    let third = std::fs::read_to_string(&md_path).unwrap();
    assert_eq!(third.matches("<!-- bench: groestl -->").count(), 1, "{third}");
    assert!(groestl_section(&third).contains("groestl-256, median") && !groestl_section(&third).contains("groestl-512"), "{third}");
    let proest = |t: &str| t[t.find("<!-- bench: proest -->").unwrap()..t.find("<!-- /bench: proest -->").unwrap()].to_string();
    assert_eq!(proest(&third), proest(&second));
}

/// A one-sample Grøstl run with `--save path` (which may fail).
fn save_into(path: &std::path::Path) -> std::process::Output {
    let mut cmd = common::slicewise();
    cmd.args(["bench", "groestl", "--sizes", "64", "--samples", "1", "--backend", "portable", "--save"]).arg(path);
    cmd.env_remove("SLICEWISE_BACKEND").output().unwrap()
}

/// A `--save` path that cannot be used fails before anything is measured, with a clear message,
/// and writes nothing; so does a file of the CPU's name that `--save` did not write.
#[test]
fn bad_save_paths_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let under_file = file.join("sub");
    for (path, message) in [(file.clone(), "not a directory"), (under_file, "cannot create the directory")] {
        let out = save_into(&path);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{path:?} succeeded");
        assert!(stderr.contains("--save") && stderr.contains(message), "{path:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{path:?}: measured although --save is unusable");
    }
    assert_eq!(names(dir.path()), ["not-a-dir"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");

    // A hand-written file where the CPU file would go is not overwritten.
    let probe = tempfile::tempdir().unwrap();
    bench(&["--no-compare", "--algorithms", "groestl-256", "--save", probe.path().to_str().unwrap()]);
    let md_name = names(probe.path()).into_iter().find(|n| n.ends_with(".md")).unwrap();
    let foreign = tempfile::tempdir().unwrap();
    std::fs::write(foreign.path().join(&md_name), "# my notes\n").unwrap();
    let out = save_into(foreign.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("refusing to overwrite"), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(names(foreign.path()), std::slice::from_ref(&md_name));
    assert_eq!(std::fs::read_to_string(foreign.path().join(&md_name)).unwrap(), "# my notes\n");
}

/// Bad arguments are clear errors with a non-zero exit, and nothing is measured.
#[test]
fn bad_arguments_are_errors() {
    let cases: [(&[&str], &str); 6] = [
        (&["--backend", "nonsense"], "unknown Grøstl backend"),
        (&["--sizes", "0"], "must be positive"),
        (&["--sizes", "lots"], "bad size"),
        (&["--runs", "0"], "0"),
        (&["--algorithms", "sha256"], "unknown algorithm"),
        (&["--across-runs", "mean"], "invalid value 'mean'"),
    ];
    for (args, message) in cases {
        let out = common::slicewise()
            .args(["bench", "groestl", "--samples", "1", "--bytes-per-sample", "64"])
            .args(args)
            .env_remove("SLICEWISE_BACKEND")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed results");
    }
}

/// The README's speed tables are the ones `scripts/bench-readme.py` writes from the files of the
/// CPU they name in `docs/bench/`, so the README cannot drift from a re-generated file.
#[test]
fn readme_speed_tables_match_docs_bench() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("<!-- bench-table:").expect("the README has a generated speed table");
    let block = &readme[start..];
    let slug = block.split("](docs/bench/").nth(1).and_then(|s| s.split(".md)").next()).expect("the table links its CPU file");
    let out = std::process::Command::new("python3")
        .arg(root.join("scripts/bench-readme.py"))
        .args(["--check", slug])
        .output()
        .expect("python3 runs scripts/bench-readme.py");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
