# cannonriderscorpion: fitted by `cannonade wdl` (maximum likelihood) on 79839 positions of 1498 games (200 mate scores left out) from cannonriderscorpion.bin; mean log loss 0.6364
# draws: 9.7% of games
# a(m), b(m): cubics in m = clamp(move, 9, 106) / 32, centipawns
variant cannonriderscorpion
moves 9 106
a 79.170955 -124.565044 105.041776 16.656490
b 205.904485 27.295448 -65.347758 20.273763
