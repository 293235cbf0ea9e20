//! build.rs - passes the ndarray version Cargo.lock pins to the adapter (BCT_NDARRAY_VERSION), for its reports.
use std::fs;

/// The version of package `name` in Cargo.lock's text, if it is there.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{name}\"") {
            let v = lines.next()?.trim();
            return v.strip_prefix("version = \"")?.strip_suffix('"').map(str::to_string);
        }
    }
    None
}

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = fs::read_to_string("Cargo.lock").unwrap_or_default();
    let version = locked_version(&lock, "ndarray").unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BCT_NDARRAY_VERSION={version}");
}
