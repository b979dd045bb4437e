//! The browser harness of the page tests: a real headless Chromium driven over the DevTools
//! protocol over a pipe (`cdp`: synchronous, so tests need no async runtime and no driver
//! process). Chromium comes from Debian (`apt-get install chromium`, done by `.ci/run`); a
//! missing browser is a test failure, never a skip. Each test module that needs a browser
//! says `use crate::browser;`.

pub mod cdp;
pub mod i18n;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

/// A running headless Chromium with one page; dropping it ends the browser.
pub struct Browser {
    cdp: cdp::Cdp,
}

/// The Chromium binary: `$TABLERO_CHROMIUM`, else the first of the usual names on PATH.
pub fn chromium_path() -> PathBuf {
    if let Ok(p) = std::env::var("TABLERO_CHROMIUM") {
        return PathBuf::from(p);
    }
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "no Chromium found (looked for chromium, chromium-browser, google-chrome on PATH and \
         $TABLERO_CHROMIUM): install it with `apt-get install chromium` (.ci/run does)"
    );
}

/// Where tests leave screenshots for a person to look at: `target/screenshots/`.
pub fn screenshot_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&d).expect("create target/screenshots");
    d
}

impl Browser {
    /// Starts Chromium (headless, no sandbox: CI runs as root) with a `width` × `height` window.
    pub fn launch_sized(width: u32, height: u32) -> Browser {
        Browser::launch_lang("en-US", width, height)
    }

    /// Starts Chromium whose user prefers the languages `langs` (`--accept-lang`, e.g.
    /// `es-ES,es`: `navigator.languages` and `Accept-Language`; headless Chromium ignores
    /// `--lang` for them), with a `width` × `height` window.
    pub fn launch_lang(langs: &str, width: u32, height: u32) -> Browser {
        let args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-background-timer-throttling",
            "--disable-backgrounding-occluded-windows",
            "--disable-renderer-backgrounding",
            "--disable-sync",
            "--force-color-profile=srgb",
            "--hide-scrollbars",
            "--mute-audio",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            format!("--accept-lang={langs}"),
            format!("--window-size={width},{height}"),
        ])
        .collect();
        Browser {
            cdp: cdp::Cdp::launch(&chromium_path(), &args),
        }
    }

    /// Starts Chromium with a 1280 × 900 window.
    pub fn launch() -> Browser {
        Browser::launch_sized(1280, 900)
    }

    /// Opens `url` and waits for its document's load to finish.
    pub fn goto(&self, url: &str) {
        let r = self.cdp.call("Page.navigate", json!({ "url": url }));
        if let Some(e) = r["errorText"].as_str() {
            panic!("navigate to {url}: {e}");
        }
        // No loader: a navigation within the document (a new #fragment), nothing to load.
        if let Some(loader) = r["loaderId"].as_str() {
            self.cdp.wait_load(loader, Duration::from_secs(20));
        }
    }

    /// Evaluates a JavaScript expression and returns its value as JSON (the expression's result
    /// goes through `JSON.stringify`; promises are awaited). `undefined` becomes `null`.
    pub fn eval(&self, expr: &str) -> serde_json::Value {
        let wrapped = format!(
            "(async () => {{ const v = await ({expr}); return JSON.stringify(v === undefined ? null : v); }})()"
        );
        let r = self.cdp.call(
            "Runtime.evaluate",
            json!({ "expression": wrapped, "awaitPromise": true, "returnByValue": true }),
        );
        match &r["result"]["value"] {
            serde_json::Value::String(s) => {
                serde_json::from_str(s).unwrap_or(serde_json::Value::Null)
            }
            _ => panic!(
                "evaluate {expr}: no value (exception?): {}",
                r["exceptionDetails"]
            ),
        }
    }

    /// Evaluates `expr` and returns its value (not through JSON text), or the error or
    /// exception as text (while a page is going away, for instance).
    fn try_eval(&self, expr: &str) -> Result<serde_json::Value, String> {
        let r = self.cdp.try_call(
            "Runtime.evaluate",
            json!({ "expression": expr, "returnByValue": true }),
        )?;
        if r.get("exceptionDetails").is_some() {
            return Err(r["exceptionDetails"].to_string());
        }
        Ok(r["result"]["value"].clone())
    }

    /// Polls the JavaScript expression until it is truthy, or panics after `timeout` with `what`.
    pub fn wait_until(&self, expr: &str, timeout: Duration, what: &str) {
        let start = Instant::now();
        loop {
            let v = self.eval(&format!("!!({expr})"));
            if v == serde_json::Value::Bool(true) {
                return;
            }
            if start.elapsed() > timeout {
                panic!("timed out after {timeout:?} waiting for {what} ({expr})");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Clicks the first element matching the CSS selector with a real mouse event at its centre
    /// (scrolled into view first), waiting up to 20 s for it to exist.
    pub fn click(&self, css: &str) {
        self.wait_for(css);
        self.tap(css);
    }

    /// A real mouse click (moved, pressed and released through the browser's input pipeline)
    /// at the centre of the first element matching `css`, scrolled into view; panics if there
    /// is no such element now.
    pub fn tap(&self, css: &str) {
        let q = serde_json::to_string(css).unwrap_or_default();
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({q}); if (!e) return null; \
             e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
        ));
        let at = at.as_array().unwrap_or_else(|| panic!("no element {css}"));
        let (x, y) = (at[0].as_f64().unwrap_or(0.0), at[1].as_f64().unwrap_or(0.0));
        self.click_at(x, y);
    }

    /// A real left click at (`x`, `y`) in CSS pixels of the viewport.
    pub fn click_at(&self, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            let mut ev = json!({ "type": kind, "x": x, "y": y });
            if kind != "mouseMoved" {
                ev["button"] = json!("left");
                ev["clickCount"] = json!(1);
            }
            self.cdp.call("Input.dispatchMouseEvent", ev);
        }
    }

    /// Waits up to 20 s for an element matching `css`.
    fn wait_for(&self, css: &str) {
        let q = serde_json::to_string(css).unwrap_or_default();
        self.wait_until(
            &format!("document.querySelector({q})"),
            Duration::from_secs(20),
            &format!("an element {css}"),
        );
    }

    /// Tells the page that its user prefers the languages `langs` (`navigator.languages` and
    /// `Accept-Language`), keeping the browser's own user agent; takes effect on the next load.
    pub fn set_languages(&self, langs: &str) {
        let ua = self.eval("navigator.userAgent");
        self.cdp.call(
            "Emulation.setUserAgentOverride",
            json!({ "userAgent": ua, "acceptLanguage": langs }),
        );
    }

    /// The `textContent` of the first element matching `css` now (`""` if there is none),
    /// without `text`'s wait for the element.
    pub fn content(&self, css: &str) -> String {
        let q = serde_json::to_string(css).unwrap_or_default();
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({q}); return e ? e.textContent : ''; }})()"
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    /// Reloads the page and waits until the JavaScript expression `ready` holds in the new one
    /// (quicker than `goto`, which waits for the browser's own end of navigation).
    pub fn reload_until(&self, ready: &str, what: &str) {
        self.eval("(() => { window.tableroOld = true; location.reload(); })()");
        let check = format!(
            "(() => {{ try {{ return !window.tableroOld && !!({ready}); }} catch (e) {{ return false; }} }})()"
        );
        let start = Instant::now();
        // Evaluations fail while the old page goes away: they count as "not yet".
        while self.try_eval(&check) != Ok(serde_json::Value::Bool(true)) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out waiting for {what} after a reload"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The inner text of the first element matching `css` (waits up to 20 s for it).
    pub fn text(&self, css: &str) -> String {
        self.wait_for(css);
        let q = serde_json::to_string(css).unwrap_or_default();
        self.eval(&format!("document.querySelector({q}).innerText"))
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Number of elements matching `css` now.
    pub fn count(&self, css: &str) -> usize {
        let q = serde_json::to_string(css).unwrap_or_default();
        self.eval(&format!("document.querySelectorAll({q}).length"))
            .as_u64()
            .unwrap_or(0) as usize
    }

    /// Presses a key ("ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End",
    /// "Enter", "Escape") on the focused page.
    pub fn press(&self, key: &str) {
        let code = match key {
            "Enter" => 13,
            "Escape" => 27,
            "End" => 35,
            "Home" => 36,
            "ArrowLeft" => 37,
            "ArrowUp" => 38,
            "ArrowRight" => 39,
            "ArrowDown" => 40,
            other => panic!("press {other}: not a key this harness knows"),
        };
        let text = if key == "Enter" { "\r" } else { "" };
        let down = if text.is_empty() {
            "rawKeyDown"
        } else {
            "keyDown"
        };
        for kind in [down, "keyUp"] {
            self.cdp.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "text": if kind == "keyUp" { "" } else { text },
                        "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code }),
            );
        }
    }

    /// Writes a PNG of the visible page to `target/screenshots/<name>.png` and returns its path.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let r = self.cdp.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "fromSurface": true }),
        );
        let png = cdp::base64_decode(
            r["data"]
                .as_str()
                .unwrap_or_else(|| panic!("screenshot {name}: no data")),
        );
        let path = screenshot_dir().join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        path
    }
}
