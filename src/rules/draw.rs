//! Rules of a promotional draw operation ("Chanceux Noël", D-1 … D-15). (to be written)
