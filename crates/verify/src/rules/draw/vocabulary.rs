//! The export format's closed vocabularies that the operation's rules name: the channels a play
//! can be made on (D-3) and the reasons an account is excluded (D-6, D-13).

/// Where a play was made (entry-export-v1 `channel`). Only online channels can count (D-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Channel {
    /// `web`: the web site.
    Web,
    /// `mobile`: the mobile site.
    Mobile,
    /// `tablet`: the tablet site.
    Tablet,
    /// `app`: the mobile application.
    App,
    /// `retail`: a point of sale; never an online channel (D-3).
    Retail,
}

impl Channel {
    /// Every channel the export format knows, in a fixed order.
    pub const ALL: [Channel; 5] = [
        Channel::Web,
        Channel::Mobile,
        Channel::Tablet,
        Channel::App,
        Channel::Retail,
    ];

    /// The channel's name as the export format spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Web => "web",
            Channel::Mobile => "mobile",
            Channel::Tablet => "tablet",
            Channel::App => "app",
            Channel::Retail => "retail",
        }
    }

    /// Parses a channel name exactly as the export format spells it.
    pub fn parse(s: &str) -> Option<Channel> {
        Channel::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// Why an account gets no entry (entry-export-v1 `reason`; D-6 closed account, D-13 minor or fraud).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExclusionReason {
    /// `closed`: the account is closed (D-6).
    Closed,
    /// `minor`: the holder is a minor (D-13).
    Minor,
    /// `fraud`: the account is excluded for fraud (D-13).
    Fraud,
}

impl ExclusionReason {
    /// Every reason the export format knows, in a fixed order (the order of `DayTally` figures).
    pub const ALL: [ExclusionReason; 3] = [
        ExclusionReason::Closed,
        ExclusionReason::Minor,
        ExclusionReason::Fraud,
    ];

    /// The reason's name as the export format spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ExclusionReason::Closed => "closed",
            ExclusionReason::Minor => "minor",
            ExclusionReason::Fraud => "fraud",
        }
    }

    /// Parses a reason exactly as the export format spells it.
    pub fn parse(s: &str) -> Option<ExclusionReason> {
        ExclusionReason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Index in `ALL` (for per-reason counters).
    pub fn index(self) -> usize {
        self as usize
    }
}
