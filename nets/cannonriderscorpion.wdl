# cannonriderscorpion: fitted by `cannonade wdl` (maximum likelihood) on 39576 positions of 688 games (153 mate scores left out) from /tmp/dev/wd/cannonriderscorpion.bin; mean log loss 0.6957
# draws: 12.2% of games
# a(m), b(m): cubics in m = clamp(move, 9, 119) / 32, centipawns
variant cannonriderscorpion
moves 9 119
a 112.951124 -195.292599 190.566160 -12.389481
b 201.206340 61.242563 -60.293536 14.637095
