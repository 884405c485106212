# swedishcannon: fitted by `cannonade wdl` (maximum likelihood) on 79755 positions of 1301 games (273 mate scores left out) from swedishcannon.bin; mean log loss 0.6105
# draws: 15.2% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant swedishcannon
moves 9 120
a 92.808392 -126.758147 165.313030 -20.489229
b 198.060654 -81.988334 41.038035 -5.066347
