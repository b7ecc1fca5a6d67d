// Preloaded (node --import) into a test peer started with PORT=0 (tests/nodepeer.h): prints
// "nodepeer: port N" once the peer's first server listens, N being the port the system gave
// it. The peer binds the port itself, so no other process can take it in between, and its own
// message ("listening on port 0") need not say which it got.
import net from 'node:net';

const listen = net.Server.prototype.listen;
let reported = false;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    const address = this.address();
    if (reported || !address || typeof address !== 'object') return;
    reported = true;
    console.log(`nodepeer: port ${address.port}`);
  });
  return listen.apply(this, args);
};
