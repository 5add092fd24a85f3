#pragma once
// A list that copies share until one of them is changed (copy on write). A scene saved with its particles listed
// one by one carries tens of thousands of entries; the session's document, the copy published to the app with
// every edit and the presets of each phase all hold the same list, and copying it for each edit took longer
// than the edit (issue 37: a remote `set` on 20 000 listed particles).
//
// Reading never copies (use a const reference: the non-const accessors prepare to write). Writing through
// edit(), a non-const operator[], begin() or push_back() first copies the list if any other list was ever made
// from it, so a copy never sees another's change. A reference obtained for writing must not be kept across a
// copy of the list: the copy would share what it then writes.

#include <atomic>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace lodestone {

template <class T>
class SharedList {
 public:
  using value_type = T;
  using const_iterator = typename std::vector<T>::const_iterator;
  using iterator = typename std::vector<T>::iterator;

  SharedList() = default;
  SharedList(std::vector<T> items) : items_(std::make_shared<std::vector<T>>(std::move(items))) {}  // NOLINT
  SharedList(std::initializer_list<T> items) : SharedList(std::vector<T>(items)) {}

  // A copy shares the items; both are marked, so the first of them to be changed copies them first.
  SharedList(const SharedList& other) : items_(other.items_) {
    other.shared_.store(true, std::memory_order_relaxed);
    shared_.store(true, std::memory_order_relaxed);
  }
  SharedList(SharedList&& other) noexcept
      : items_(std::move(other.items_)), shared_(other.shared_.load(std::memory_order_relaxed)) {}
  SharedList& operator=(SharedList other) noexcept {
    items_ = std::move(other.items_);
    shared_.store(other.shared_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  const std::vector<T>& items() const { return items_ ? *items_ : empty_list(); }
  operator const std::vector<T>&() const { return items(); }  // NOLINT: reads as the vector it holds

  std::size_t size() const { return items().size(); }
  bool empty() const { return items().empty(); }
  const T& operator[](std::size_t i) const { return items()[i]; }
  const T& front() const { return items().front(); }
  const T& back() const { return items().back(); }
  const_iterator begin() const { return items().begin(); }
  const_iterator end() const { return items().end(); }

  // The list to change, this one's own.
  std::vector<T>& edit() {
    if (!items_)
      items_ = std::make_shared<std::vector<T>>();
    else if (shared_.load(std::memory_order_relaxed))
      items_ = std::make_shared<std::vector<T>>(*items_);
    shared_.store(false, std::memory_order_relaxed);
    return *items_;
  }
  T& operator[](std::size_t i) { return edit()[i]; }
  iterator begin() { return edit().begin(); }
  iterator end() { return edit().end(); }
  void push_back(T item) { edit().push_back(std::move(item)); }
  void clear() {
    items_.reset();
    shared_.store(false, std::memory_order_relaxed);
  }

  // True when both hold the very same items (so they are equal without comparing them), or both none.
  bool shares_items_with(const SharedList& other) const { return items_ == other.items_; }

 private:
  static const std::vector<T>& empty_list() {
    static const std::vector<T> none;
    return none;
  }

  std::shared_ptr<std::vector<T>> items_;  // null: empty
  // Set when a copy was made from this list or this from another: the items may be another's too. Atomic
  // because copies of one published list may be made on several threads at once.
  mutable std::atomic<bool> shared_{false};
};

}  // namespace lodestone
