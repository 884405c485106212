# chesstonia: fitted by `cannonade wdl` (maximum likelihood) on 78214 positions of 770 games (341 mate scores left out) from /tmp/dev/wd/chesstonia.bin; mean log loss 0.6606
# draws: 19.6% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant chesstonia
moves 9 120
a 73.279464 -19.052621 23.984410 14.391595
b 200.696421 -108.078318 50.242351 -4.166633
