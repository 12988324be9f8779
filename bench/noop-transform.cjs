// A jscodeshift transform that changes nothing: it parses each file, as every real transform
// does before it looks for anything, and returns undefined (unchanged). This is the cost of
// jscodeshift's runner plus one parse per file; a transform returning before parsing would time
// only the runner's file reads.
module.exports = function noop(file, api) {
  api.jscodeshift(file.source);
  return undefined;
};
module.exports.parser = 'tsx';
