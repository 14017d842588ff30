//! A minimal SVG line plot: cycles/byte against message length (log scale), one line per
//! series. No dependencies; the output is a self-contained file for `docs/`.

use std::fmt::Write;

/// One line of the plot: a label and `(x, y)` points.
pub type Series = (String, Vec<(f64, f64)>);

const W: f64 = 760.0;
const H: f64 = 460.0;
const L: f64 = 70.0;
const T: f64 = 40.0;
const B: f64 = 50.0;
const COLORS: [&str; 10] =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

fn fmt_bytes(x: f64) -> String {
    if x >= 1048576.0 {
        format!("{}MiB", x / 1048576.0)
    } else if x >= 1024.0 {
        format!("{}KiB", x / 1024.0)
    } else {
        format!("{x}")
    }
}

/// Renders the series with a log-scale x axis (bytes) and a log-scale y axis.
pub fn svg(title: &str, y_label: &str, series: &[Series]) -> String {
    // Legend width from the longest label.
    let longest = series.iter().map(|s| s.0.chars().count()).max().unwrap_or(0) as f64;
    let r = 60.0 + 7.0 * longest;
    let w = W + (r - 190.0).max(0.0);
    let pts = series.iter().flat_map(|s| s.1.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        if y > 0.0 {
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if x0 >= x1 {
        x1 = x0 * 2.0;
    }
    let (ly0, ly1) = ((y0 * 0.8).log10().floor(), (y1 * 1.25).log10().ceil());
    let (lx0, lx1) = (x0.log2(), x1.log2());
    let px = |x: f64| L + (x.log2() - lx0) / (lx1 - lx0).max(1e-9) * (w - L - r);
    let py = |y: f64| T + (ly1 - y.max(1e-9).log10()) / (ly1 - ly0).max(1e-9) * (H - T - B);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{title}</text>"#, (w - r + L) / 2.0);
    // Y grid: decades and 2x, 5x.
    let mut d = ly0;
    while d <= ly1 {
        for m in [1.0, 2.0, 5.0] {
            let y = m * 10f64.powf(d);
            if y.log10() > ly1 + 1e-9 {
                continue;
            }
            let yy = py(y);
            let _ = writeln!(s, r##"<line x1="{L}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/>"##, w - r);
            let _ = writeln!(s, r#"<text x="{}" y="{:.1}" text-anchor="end">{y}</text>"#, L - 6.0, yy + 4.0);
        }
        d += 1.0;
    }
    // X ticks at the measured sizes.
    let mut xs: Vec<f64> = series.iter().flat_map(|s| s.1.iter().map(|p| p.0)).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    for &x in &xs {
        let xx = px(x);
        let _ = writeln!(s, r##"<line x1="{xx:.1}" x2="{xx:.1}" y1="{T}" y2="{}" stroke="#eee"/>"##, H - B);
        let _ = writeln!(s, r#"<text x="{xx:.1}" y="{}" text-anchor="middle">{}</text>"#, H - B + 16.0, fmt_bytes(x));
    }
    let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">message length (bytes)</text>"#, (w - r + L) / 2.0, H - 12.0);
    let _ = writeln!(
        s,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">{y_label}</text>"#,
        (H - B + T) / 2.0,
        (H - B + T) / 2.0
    );
    let _ = writeln!(s, r#"<rect x="{L}" y="{T}" width="{}" height="{}" fill="none" stroke="black"/>"#, w - L - r, H - T - B);
    for (i, (name, p)) in series.iter().enumerate() {
        let c = COLORS[i % COLORS.len()];
        // After ten series the colours repeat, so the line style changes.
        let dash = match i / COLORS.len() {
            0 => "",
            1 => r#" stroke-dasharray="7,4""#,
            _ => r#" stroke-dasharray="2,3""#,
        };
        let path: Vec<String> = p.iter().map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y))).collect();
        let _ = writeln!(s, r#"<polyline fill="none" stroke="{c}" stroke-width="2"{dash} points="{}"/>"#, path.join(" "));
        for &(x, y) in p {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{c}"/>"#, px(x), py(y));
        }
        let ly = T + 14.0 + 18.0 * i as f64;
        let _ = writeln!(s, r#"<line x1="{}" x2="{}" y1="{ly}" y2="{ly}" stroke="{c}" stroke-width="3"{dash}/>"#, w - r + 12.0, w - r + 36.0);
        let _ = writeln!(s, r#"<text x="{}" y="{}">{}</text>"#, w - r + 42.0, ly + 4.0, escape(name));
    }
    s.push_str("</svg>\n");
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_every_series() {
        let s = super::svg("t", "cpb", &[("a<b".into(), vec![(64.0, 20.0), (1024.0, 10.0)]), ("c".into(), vec![(64.0, 5.0)])]);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<polyline").count(), 2);
        assert!(s.contains("a&lt;b"));
    }
}
