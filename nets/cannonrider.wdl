# cannonrider: fitted by `cannonade wdl` (maximum likelihood) on 49252 positions of 655 games (215 mate scores left out) from /tmp/dev/wd/cannonrider.bin; mean log loss 0.6492
# draws: 19.4% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant cannonrider
moves 9 120
a 139.554353 -131.463831 92.146439 6.405793
b 329.081131 -341.471633 168.428768 -20.451018
