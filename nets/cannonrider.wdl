# cannonrider: fitted by `cannonade wdl` (maximum likelihood) on 79925 positions of 1162 games (156 mate scores left out) from cannonrider.bin; mean log loss 0.6263
# draws: 17.1% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant cannonrider
moves 9 120
a 132.174996 -197.278683 199.690591 -22.276486
b 255.462913 -167.312501 73.571315 -8.620144
