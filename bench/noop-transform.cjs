// A jscodeshift transform that does nothing: the cost of jscodeshift's runner alone (parse every
// file, hand it to a transform, return unchanged).
module.exports = function noop() {
  return undefined;
};
module.exports.parser = 'tsx';
