//! `slicewise bench groestl`: the shape of `--json --many` output and the files `--save` writes.
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
    for alg in ["groestl-256", "groestl-512"] {
        for imp in ["portable", "portable (hash_many ×256)", "rustcrypto-groestl", "groestl-aesni"] {
            let c = find(alg, imp);
            assert_eq!(c["bytes"], 64, "{c}");
            assert!(positive(&c["cycles_per_byte"]), "{c}");
            assert!(c.get("cycles_per_header").is_none(), "{c}");
        }
        assert_eq!(find(alg, "portable")["constant_time"], true);
        assert_eq!(find(alg, "portable (hash_many ×256)")["constant_time"], true);
        assert!(find(alg, "groestl-aesni")["constant_time"].is_null());
    }
    for imp in ["portable (groestlcoin_hash_many ×256)", "rustcrypto-groestl (one by one)"] {
        let c = find("groestlcoin", imp);
        assert_eq!(c["bytes"], 80, "{c}");
        let (cpb, per_header) = (c["cycles_per_byte"].as_f64().unwrap(), c["cycles_per_header"].as_f64().unwrap());
        assert!(cpb > 0.0 && cpb.is_finite(), "{c}");
        assert!((per_header - 80.0 * cpb).abs() <= 1e-6 * per_header, "{c}");
    }
    // 2 sizes × (one-shot + hash_many + 2 comparisons) + 2 Groestlcoin rows, nothing else.
    assert_eq!(results.len(), 2 * 4 + 2, "{results:#?}");
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

#[test]
fn save_writes_json_markdown_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("out");
    let out = bench(&["--many", "--no-compare", "--algorithms", "groestl-256", "--save", save.to_str().unwrap()]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("| portable (hash_many ×256) | yes |"), "{table}");
    assert!(table.contains("| 80 B | per header |"), "{table}");
    assert!(table.starts_with("CPU: ") && table.lines().next().unwrap().contains("family"), "the table names its CPU: {table}");

    let json: Value = serde_json::from_str(&std::fs::read_to_string(save.join("bench-groestl.json")).unwrap()).unwrap();
    assert_eq!(json["results"].as_array().unwrap().len(), 3);
    let md = std::fs::read_to_string(save.join("bench-groestl.md")).unwrap();
    assert_eq!(md, table, "the saved Markdown is the printed table");
    // Plain rows, `hash_many` rows and the Groestlcoin rows each get a figure.
    for svg in ["bench-groestl-256.svg", "bench-groestl-256-hash_many.svg", "bench-groestlcoin-groestlcoin_hash_many.svg"] {
        let text = std::fs::read_to_string(save.join(svg)).unwrap_or_else(|e| panic!("{svg}: {e}"));
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"), "{svg}");
        assert!(text.contains("portable"), "{svg} has no series");
    }
    let mut names: Vec<String> = std::fs::read_dir(&save).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "bench-groestl-256-hash_many.svg",
            "bench-groestl-256.svg",
            "bench-groestl.json",
            "bench-groestl.md",
            "bench-groestlcoin-groestlcoin_hash_many.svg"
        ]
    );
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
