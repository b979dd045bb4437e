//! The browser harness itself: Chromium starts, runs the page's JavaScript, takes real clicks
//! and keys, and writes screenshots. Every page test depends on these working.

use crate::browser;

use std::time::Duration;

#[test]
fn chromium_runs_scripts_clicks_keys_and_screenshots() {
    let dir = std::env::temp_dir().join(format!("tablero-harness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.html");
    std::fs::write(
        &page,
        r##"<!doctype html><html><body>
<button id="b" style="position:absolute;left:40px;top:40px;width:120px;height:40px">go</button>
<svg width="200" height="100" style="position:absolute;left:40px;top:120px">
  <circle id="c" cx="50" cy="50" r="40" fill="#0072B2"/></svg>
<p id="out">0</p>
<script>
let n = 0;
document.getElementById("b").addEventListener("click", () => { n += 1; out(); });
document.getElementById("c").addEventListener("click", () => { n += 10; out(); });
document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") { n += 100; out(); } });
function out() { document.getElementById("out").textContent = String(n); }
</script></body></html>"##,
    )
    .unwrap();
    let b = browser::Browser::launch();
    b.goto(&format!("file://{}", page.display()));
    assert_eq!(b.eval("1 + 2"), serde_json::json!(3));
    assert_eq!(
        b.eval("({a: [1, 'x']})"),
        serde_json::json!({"a": [1, "x"]})
    );
    b.click("#b");
    b.click("#c");
    b.press("ArrowRight");
    b.wait_until(
        "document.getElementById('out').textContent === '111'",
        Duration::from_secs(5),
        "the click, SVG click and key handlers",
    );
    assert_eq!(b.text("#out"), "111");
    assert_eq!(b.count("circle"), 1);
    let shot = b.screenshot("harness");
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let _ = std::fs::remove_dir_all(&dir);
}
