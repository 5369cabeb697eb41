//! Rules of an instant game ("Le Noël de la chance", G-1 … G-8). (to be written)
