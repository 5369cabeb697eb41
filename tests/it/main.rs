//! All integration tests in one binary (one link, shared helpers). Each module protects one area.

#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario told in order (the state it builds, then each check); cut, its steps would read out of sequence"
)]
#![allow(
    clippy::many_single_char_names,
    reason = "a scenario names its short-lived values by a letter (g, n, t, a, b), as the crates' own tests do"
)]
#![allow(
    clippy::cast_precision_loss,
    reason = "the statistical tests compute in f64 over counts far below 2^52, where the conversion is exact"
)]
#![allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): a name ending `.JSON` is none of them"
)]

mod common;

mod adopted;
mod adversary;
mod anchors;
mod answers;
mod audit_verify;
mod block_cli;
mod blocks;
mod ceremony;
mod clock;
mod confirm;
mod draws;
mod entries;
mod figures;
mod folders;
mod fork;
mod foundation;
mod help;
mod import;
mod kills;
mod kills_keys;
mod kills_outputs;
mod kills_sitting;
mod marks;
mod minutes_pdf;
mod module;
mod musts_appliance;
mod musts_verify;
mod native;
mod outputs;
mod outside;
mod paced;
mod pinned;
mod placing;
mod planted;
mod print;
mod producer;
mod rehearsal;
mod restart;
mod review;
mod robust;
mod runbook;
mod screens;
mod sealing;
mod secrets;
mod status;
mod trail;
mod unofficial;
mod vectors;
mod verify_cli;
mod void_notice;
mod walk;
