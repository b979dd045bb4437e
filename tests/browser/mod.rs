//! The browser harness of the page tests: a real headless Chromium driven over the DevTools
//! protocol (`headless_chrome`, synchronous, so tests need no async runtime and no driver
//! process). Chromium comes from Debian (`apt-get install chromium`, done by `.ci/run`); a
//! missing browser is a test failure, never a skip. Each test module that needs a browser
//! declares `mod browser;`.
#![allow(dead_code)] // each test binary uses a different subset of the helpers

pub mod i18n;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{LaunchOptions, Tab};

/// A running headless Chromium with one tab.
pub struct Browser {
    // Kept alive for the tab; dropping it ends the browser process.
    _browser: headless_chrome::Browser,
    pub tab: Arc<Tab>,
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
        let path = chromium_path();
        let lang_arg = format!("--accept-lang={langs}");
        let args: Vec<&OsStr> = vec![
            OsStr::new("--disable-dev-shm-usage"),
            OsStr::new("--no-first-run"),
            OsStr::new("--disable-extensions"),
            OsStr::new("--hide-scrollbars"),
            OsStr::new(&lang_arg),
        ];
        let opts = LaunchOptions::default_builder()
            .path(Some(path.clone()))
            .headless(true)
            .sandbox(false)
            .window_size(Some((width, height)))
            .idle_browser_timeout(Duration::from_secs(600))
            .args(args)
            .build()
            .expect("launch options");
        let browser = headless_chrome::Browser::new(opts)
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let tab = browser.new_tab().expect("new tab");
        tab.set_default_timeout(Duration::from_secs(20));
        Browser {
            _browser: browser,
            tab,
        }
    }

    /// Starts Chromium with a 1280 × 900 window.
    pub fn launch() -> Browser {
        Browser::launch_sized(1280, 900)
    }

    /// Opens `url` and waits for the load to finish.
    pub fn goto(&self, url: &str) {
        self.tab
            .navigate_to(url)
            .and_then(|t| t.wait_until_navigated())
            .unwrap_or_else(|e| panic!("navigate to {url}: {e}"));
    }

    /// Evaluates a JavaScript expression and returns its value as JSON (the expression's result
    /// goes through `JSON.stringify`; promises are awaited). `undefined` becomes `null`.
    pub fn eval(&self, expr: &str) -> serde_json::Value {
        let wrapped = format!(
            "(async () => {{ const v = await ({expr}); return JSON.stringify(v === undefined ? null : v); }})()"
        );
        let r = self
            .tab
            .evaluate(&wrapped, true)
            .unwrap_or_else(|e| panic!("evaluate {expr}: {e}"));
        match r.value {
            Some(serde_json::Value::String(s)) => {
                serde_json::from_str(&s).unwrap_or(serde_json::Value::Null)
            }
            other => panic!(
                "evaluate {expr}: no value (exception?): {other:?} {:?}",
                r.description
            ),
        }
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
    /// (scrolled into view first), waiting for it to exist.
    pub fn click(&self, css: &str) {
        let el = self
            .tab
            .wait_for_element(css)
            .unwrap_or_else(|e| panic!("no element {css}: {e}"));
        el.click().unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// A real mouse click (pressed and released through the browser's input pipeline) at the
    /// centre of the first element matching `css`, scrolled into view, without `click`'s waits
    /// for the element (about a second each); panics if there is no such element now.
    pub fn tap(&self, css: &str) {
        let q = serde_json::to_string(css).unwrap_or_default();
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({q}); if (!e) return null; \
             e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
        ));
        let at = at.as_array().unwrap_or_else(|| panic!("no element {css}"));
        let (x, y) = (at[0].as_f64().unwrap_or(0.0), at[1].as_f64().unwrap_or(0.0));
        self.tab
            .click_point(headless_chrome::browser::tab::point::Point { x, y })
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
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
        while !matches!(self.tab.evaluate(&check, false), Ok(r) if r.value == Some(serde_json::Value::Bool(true)))
        {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out waiting for {what} after a reload"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The inner text of the first element matching `css` (waits for it).
    pub fn text(&self, css: &str) -> String {
        self.tab
            .wait_for_element(css)
            .and_then(|e| e.get_inner_text())
            .unwrap_or_else(|e| panic!("text of {css}: {e}"))
    }

    /// Number of elements matching `css` now.
    pub fn count(&self, css: &str) -> usize {
        let q = serde_json::to_string(css).unwrap_or_default();
        self.eval(&format!("document.querySelectorAll({q}).length"))
            .as_u64()
            .unwrap_or(0) as usize
    }

    /// Presses a key ("ArrowRight", "ArrowLeft", "Home", "End", "Enter", …) on the focused page.
    pub fn press(&self, key: &str) {
        self.tab
            .press_key(key)
            .unwrap_or_else(|e| panic!("press {key}: {e}"));
    }

    /// Writes a PNG of the visible page to `target/screenshots/<name>.png` and returns its path.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let png = self
            .tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .unwrap_or_else(|e| panic!("screenshot {name}: {e}"));
        let path = screenshot_dir().join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        path
    }
}
