# swedishcannon1: fitted by `cannonade wdl` (maximum likelihood) on 79768 positions of 1133 games (245 mate scores left out) from swedishcannon1.bin; mean log loss 0.6023
# draws: 17.2% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant swedishcannon1
moves 9 120
a 62.691375 -34.688334 68.293763 7.159832
b 155.874494 -44.551787 13.553823 2.909165
