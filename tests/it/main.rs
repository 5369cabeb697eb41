//! All integration tests in one binary (one link, shared helpers). Each module protects one area.

mod common;

mod adversary;
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
mod module;
mod musts_appliance;
mod musts_verify;
mod native;
mod outputs;
mod pinned;
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
mod vectors;
mod void_notice;
