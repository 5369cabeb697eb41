//! All integration tests in one binary (one link, shared helpers). Each module protects one area.

#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario told in order (the state it builds, then each check); cut, its steps would read out of sequence"
)]

mod common;

mod adopted;
mod adversary;
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
mod kills;
mod kills_keys;
mod kills_outputs;
mod kills_sitting;
mod module;
mod musts_appliance;
mod musts_verify;
mod native;
mod outputs;
mod outside;
mod pinned;
mod placing;
mod planted;
mod print;
mod producer;
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
