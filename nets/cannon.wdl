# cannon: fitted by `cannonade wdl` (maximum likelihood) on 91874 positions of 2496 games (4893 mate scores left out) from /tmp/dev/wd/cannon.bin; mean log loss 0.5552
# draws: 0.2% of games; the model gives no draw band (a = 0)
# a(m), b(m): cubics in m = clamp(move, 9, 46) / 32, centipawns
variant cannon
moves 9 46
a 0.000000 0.000000 0.000000 0.000000
b 255.011683 -430.759271 569.449270 -153.335653
